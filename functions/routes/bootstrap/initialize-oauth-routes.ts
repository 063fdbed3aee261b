// POST /bootstrap/initialize-oauth: first run through a provider (shared/verbs/oauth/bootstrap.ts).
import type { Hono } from "hono";
import { SessionResponse } from "../../../shared/schemas/auth.ts";
import { InitializeOAuthBody } from "../../../shared/schemas/bootstrap.ts";
import { initializeWithOAuth } from "../../../shared/verbs/oauth/bootstrap.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { sessionAnswer } from "../auth/respond.ts";
import { signInArgs } from "../auth/sign-in-args.ts";

export function initializeOAuthRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/bootstrap/initialize-oauth",
      tag: "bootstrap",
      auth: "public",
      summary: "Make the provider account signed in before first run the first administrator (needs the setup token)",
      description:
        "oauth_token is the token GET /auth/exchange answered for the pre-bootstrap provider sign-in. Answers like /bootstrap/initialize (a fresh session; the pre-bootstrap one is revoked). The reference's other first-run fields (theme, SMTP, ...) are accepted and ignored: they have their own settings routes. 400 for a bad token, 403 for a wrong setup token, 409 once an administrator exists.",
      body: InitializeOAuthBody,
      response: { schema: SessionResponse },
      errors: [403, 409],
    },
    async (c, { body, reply }) => {
      const deps = c.get("deps");
      const result = await initializeWithOAuth(await signInArgs(c, { ...body, configuredSetupToken: deps.config.SVC_SETUP_TOKEN }));
      deps.identity.markBootstrapped();
      return reply(sessionAnswer(c, { kind: "session", ...result }));
    },
  );
}
