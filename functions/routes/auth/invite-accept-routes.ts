// POST /auth/accept-invite: public and CSRF-exempt (spec 5.3); creates the invited account and signs in.
import type { Hono } from "hono";
import * as v from "valibot";
import { DisplayName } from "../../../shared/verbs/admin-users/input-schemas.ts";
import { acceptInvite } from "../../../shared/verbs/invites/accept-invite.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { respondLogin } from "./respond.ts";
import { Password, SessionResponse } from "./schemas.ts";
import { signInArgs } from "./sign-in-args.ts";

export function inviteAcceptRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post", path: "/api/v1/auth/accept-invite", tag: "auth", auth: "public",
      summary: "Accept an invite: creates the account with the invite's role and answers like a sign-in",
      description: "Single use. An unknown, expired, used or revoked token answers 401.",
      body: v.object({ token: v.pipe(v.string(), v.minLength(1, "The invite token is required."), v.maxLength(200)), password: Password, display_name: v.optional(DisplayName) }),
      response: { schema: SessionResponse },
      errors: [409],
    },
    async (c, { body }) => respondLogin(c, await acceptInvite(await signInArgs(c, body))),
  );
}
