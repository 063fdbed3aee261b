// The caller's own account record: GET /users/me and GET /auth/me (the same answer), PATCH /users/me,
// PATCH /users/me/password and DELETE /auth/me.
import type { Hono } from "hono";
import * as v from "valibot";
import { writeBody } from "../../../shared/schemas/fields.ts";
import { changeMyPassword } from "../../../shared/verbs/account/change-password.ts";
import { deleteMyAccount } from "../../../shared/verbs/account/delete-account.ts";
import { getMe } from "../../../shared/verbs/account/get-me.ts";
import { updateMyProfile } from "../../../shared/verbs/account/update-profile.ts";
import { DisplayName, USER_READ_ONLY } from "../../../shared/verbs/admin-users/input-schemas.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { clearSessionCookies } from "../../session-cookies.ts";
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

export function profileRoutes(app: Hono<AppEnv>): void {
  for (const [path, tag, summary] of [
    ["/api/v1/users/me", "users", "Your own account"],
    ["/api/v1/auth/me", "auth", "The signed-in user"],
  ] as const) {
    route(app, { method: "get", path, tag, summary, response: { schema: Me } }, async (c) => c.json(await getMe({ ctx: verbContext(c) })));
  }

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
      method: "delete", path: "/api/v1/auth/me", tag: "auth",
      summary: "Delete your own account (confirm with the current password); the last active administrator cannot",
      body: v.object({ password: Password }), response: { schema: v.object({ detail: v.string() }) }, errors: [409],
    },
    async (c, { body }) => {
      const result = await deleteMyAccount({ ctx: verbContext(c), input: body });
      clearSessionCookies(c);
      return c.json(result);
    },
  );
}
