// The caller's own sessions: list them, sign out everywhere else, or end one.
import type { Hono } from "hono";
import { Sessions, SessionIdParam, SessionsRevoked } from "../../../shared/schemas/account.ts";
import { Detail } from "../../../shared/schemas/auth.ts";
import { listMySessions } from "../../../shared/verbs/account/list-sessions.ts";
import { revokeMySession } from "../../../shared/verbs/account/revoke-my-session.ts";
import { revokeMyOtherSessions } from "../../../shared/verbs/account/revoke-other-sessions.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function mySessionRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/users/me/sessions",
      tag: "users",
      summary: "Your live sessions (never their tokens); the one making this request is marked current",
      response: { schema: Sessions },
    },
    async (c, { reply }) => reply(await listMySessions({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/users/me/sessions",
      tag: "users",
      summary: "Sign out everywhere else: revokes all your sessions but this one",
      response: { schema: SessionsRevoked },
    },
    async (c, { reply }) => reply(await revokeMyOtherSessions({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/users/me/sessions/:session_id",
      tag: "users",
      summary: "Revoke one of your sessions",
      params: SessionIdParam,
      response: { schema: Detail },
    },
    async (c, { params, reply }) => reply(await revokeMySession({ ctx: verbContext(c), input: { sessionId: params.session_id } })),
  );
}
