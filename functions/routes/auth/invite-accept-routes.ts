// POST /auth/accept-invite: public and CSRF-exempt (spec 5.3); creates the invited account and signs in.
import type { Hono } from "hono";
import { AcceptInviteBody, SessionResponse } from "../../../shared/schemas/auth.ts";
import { acceptInvite } from "../../../shared/verbs/invites/accept-invite.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { sessionAnswer } from "./respond.ts";
import { signInArgs } from "./sign-in-args.ts";

export function inviteAcceptRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/accept-invite",
      tag: "auth",
      auth: "public",
      summary: "Accept an invite: creates the account with the invite's role and answers like a sign-in",
      description: "Single use. An unknown, expired, used or revoked token answers 401.",
      body: AcceptInviteBody,
      response: { schema: SessionResponse },
      errors: [409],
    },
    async (c, { body, reply }) => reply(sessionAnswer(c, await acceptInvite(await signInArgs(c, body)))),
  );
}
