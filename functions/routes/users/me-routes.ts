// The signed-in user's own account: GET/PATCH /users/me, PATCH /users/me/password, and the sessions
// under /users/me/sessions.
import type { Hono } from "hono";
import * as v from "valibot";
import { writeBody } from "../../../shared/schemas/fields.ts";
import { DisplayName, USER_READ_ONLY } from "../../../shared/services/admin-users/input-schemas.ts";
import { changeMyPassword } from "../../../shared/services/me/change-password.ts";
import { listMySessions } from "../../../shared/services/me/list-sessions.ts";
import { revokeMySession } from "../../../shared/services/me/revoke-my-session.ts";
import { revokeMyOtherSessions } from "../../../shared/services/me/revoke-other-sessions.ts";
import { updateMyProfile } from "../../../shared/services/me/update-profile.ts";
import { getMe } from "../../../shared/services/users/get-me.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { Email, Password, PublicUser } from "../auth/schemas.ts";

const Me = v.object({ ...PublicUser.entries, masquerade_by: v.nullable(v.number()) });
/** Besides the always read-only fields, a user cannot change these about themselves. */
const SELF_READ_ONLY = [...USER_READ_ONLY, "role", "is_active", "must_change_password"];
const ProfilePatch = writeBody(
  {
    display_name: v.optional(DisplayName),
    email: v.optional(Email),
    current_password: v.optional(v.pipe(Password, v.description("Required when email changes."))),
  },
  SELF_READ_ONLY,
);
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

export function meRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    { method: "get", path: "/api/v1/users/me", tag: "users", summary: "Your own account", response: { schema: Me } },
    async (c) => c.json(await getMe({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "patch", path: "/api/v1/users/me", tag: "users",
      summary: "Change your display name or email address (an email change needs current_password)",
      description: "Read-only fields of the user shape (id, role, scopes, ...) are ignored; any other unknown field is a 422 naming it.",
      body: ProfilePatch, response: { schema: PublicUser }, errors: [409],
    },
    async (c, { body }) => c.json(await updateMyProfile({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "patch", path: "/api/v1/users/me/password", tag: "users",
      summary: "Change your password; your other sessions are signed out",
      body: v.object({ current_password: Password, new_password: Password }),
      response: { schema: v.object({ detail: v.string(), revoked_sessions: v.number() }) },
    },
    async (c, { body }) => c.json(await changeMyPassword({ ctx: verbContext(c), input: body })),
  );

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
