// The caller's own sessions: list them, sign out everywhere else, or end one.
import type { Hono } from "hono";
import * as v from "valibot";
import { listMySessions } from "../../../shared/verbs/account/list-sessions.ts";
import { revokeMySession } from "../../../shared/verbs/account/revoke-my-session.ts";
import { revokeMyOtherSessions } from "../../../shared/verbs/account/revoke-other-sessions.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const Session = v.object({
  id: v.string(),
  created_at: v.string(),
  last_seen_at: v.nullable(v.string()),
  expires_at: v.string(),
  ip_address: v.nullable(v.string()),
  user_agent: v.nullable(v.string()),
  current: v.pipe(v.boolean(), v.description("True for the session making this request.")),
});
const SessionId = v.object({ session_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) });

export function mySessionRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/users/me/sessions", tag: "users",
      summary: "Your live sessions (never their tokens); the one making this request is marked current",
      response: { schema: v.array(Session) },
    },
    async (c) => c.json(await listMySessions({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/users/me/sessions", tag: "users",
      summary: "Sign out everywhere else: revokes all your sessions but this one",
      response: { schema: v.object({ revoked: v.number() }) },
    },
    async (c) => c.json(await revokeMyOtherSessions({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/users/me/sessions/:session_id", tag: "users",
      summary: "Revoke one of your sessions", params: SessionId, response: { schema: v.object({ detail: v.string() }) },
    },
    async (c, { params }) => c.json(await revokeMySession({ ctx: verbContext(c), input: { sessionId: params.session_id } })),
  );
}
