// The CLI's browser sign-in (docs/adr/0504, docs/cli.md): the console approves or denies for the
// signed-in user (cookie writes, so CSRF-checked), and the CLI trades the code the browser brought to its
// loopback listener for an API token at the public exchange.
import type { Hono } from "hono";
import { CliLoginApprove, CliLoginDeny, CliLoginExchange, CliLoginRedirect } from "../../../shared/schemas/cli-login.ts";
import { IssuedToken } from "../../../shared/schemas/tokens.ts";
import { approveCliLogin } from "../../../shared/verbs/cli-login/approve.ts";
import { denyCliLogin } from "../../../shared/verbs/cli-login/deny.ts";
import { exchangeCliLoginCode } from "../../../shared/verbs/cli-login/exchange.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function cliLoginRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/cli-login/approve",
      tag: "auth",
      summary: "Approve a CLI's browser sign-in: a one-time code for the CLI's loopback listener (console session only)",
      description:
        "The code is valid for 60 seconds, once, for the given PKCE challenge and redirect URI; it becomes an API token with the label, scopes (default: your own) and expiry given here. The answer names where to send the browser.",
      body: CliLoginApprove,
      response: { status: 201, schema: CliLoginRedirect },
    },
    async (c, { body, reply }) => reply(await approveCliLogin({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/cli-login/deny",
      tag: "auth",
      summary: "Deny a CLI's browser sign-in: where to send the browser back with error=access_denied",
      body: CliLoginDeny,
      response: { schema: CliLoginRedirect },
    },
    async (c, { body, reply }) => reply(await denyCliLogin({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/cli-login/token",
      tag: "auth",
      auth: "public",
      summary: "Exchange a CLI sign-in code and its PKCE verifier for a new API token (shown once)",
      description:
        'Each code is tried once: a wrong verifier or redirect URI, an expired or unknown code are 400 with "error": "invalid_grant" and audited; a second use also revokes the token the first one issued.',
      body: CliLoginExchange,
      response: { status: 201, schema: IssuedToken },
      errors: [400],
    },
    async (c, { body, reply }) => reply(await exchangeCliLoginCode({ ctx: verbContext(c), input: body })),
  );
}
