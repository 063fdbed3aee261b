// POST /bootstrap/initialize-oauth: first run through a provider (shared/verbs/oauth/bootstrap.ts).
import type { Hono } from "hono";
import * as v from "valibot";
import { initializeWithOAuth } from "../../../shared/verbs/oauth/bootstrap.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { respondLogin } from "../auth/respond.ts";
import { SessionResponse } from "../auth/schemas.ts";
import { signInArgs } from "../auth/sign-in-args.ts";

export function initializeOAuthRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post", path: "/api/v1/bootstrap/initialize-oauth", tag: "bootstrap", auth: "public",
      summary: "Make the provider account signed in before first run the first administrator (needs the setup token)",
      description:
        "oauth_token is the token GET /auth/exchange answered for the pre-bootstrap provider sign-in. Answers like /bootstrap/initialize (a fresh session; the pre-bootstrap one is revoked). The reference's other first-run fields (theme, SMTP, ...) are accepted and ignored: they have their own settings routes. 400 for a bad token, 403 for a wrong setup token, 409 once an administrator exists.",
      body: v.object({
        oauth_token: v.pipe(v.string(), v.minLength(1, "The oauth_token is required."), v.maxLength(4096)),
        setup_token: v.pipe(v.string(), v.minLength(1, "The setup token is required."), v.maxLength(512)),
        display_name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
      }),
      response: { schema: SessionResponse },
      errors: [403, 409],
    },
    async (c, { body }) => {
      const deps = c.get("deps");
      const result = await initializeWithOAuth(await signInArgs(c, { ...body, configuredSetupToken: deps.config.SVC_SETUP_TOKEN }));
      deps.identity.markBootstrapped();
      return respondLogin(c, { kind: "session", ...result });
    },
  );
}
