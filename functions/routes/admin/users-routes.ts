// Administrator user management: /admin/users* (list, create, change, delete, unlock, reset password,
// sign out everywhere, masquerade). PATCH and DELETE are shared with /users/{id} (users/user-routes.ts).
import type { Context, Hono } from "hono";
import * as v from "valibot";
import { createUser } from "../../../shared/verbs/admin-users/create-user.ts";
import { DELETE_USER_ACTION, deleteUser } from "../../../shared/verbs/admin-users/delete-user.ts";
import { IdParam, writeBody } from "../../../shared/schemas/fields.ts";
import { listQuery, listResponse } from "../../../shared/schemas/list-query.ts";
import { BooleanParam, DisplayName, RoleName, USER_READ_ONLY } from "../../../shared/verbs/admin-users/input-schemas.ts";
import { listUsers, USER_SORTS } from "../../../shared/verbs/admin-users/list-users.ts";
import { MASQUERADE_MAX_MINUTES, masquerade } from "../../../shared/verbs/admin-users/masquerade.ts";
import { resetPassword } from "../../../shared/verbs/admin-users/reset-password.ts";
import { revokeUserSessions } from "../../../shared/verbs/admin-users/revoke-user-sessions.ts";
import { unlockUser } from "../../../shared/verbs/admin-users/unlock-user.ts";
import { updateUser } from "../../../shared/verbs/admin-users/update-user.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { setSessionCookies } from "../../session-cookies.ts";
import { Email, Password, PublicUser, SessionResponse } from "../../../shared/schemas/auth.ts";
import { signInArgs } from "../auth/sign-in-args.ts";

/** The user as an administrator sees it: the public shape plus the lockout state. */
export const AdminUser = v.object({ ...PublicUser.entries, failed_logins: v.number(), locked_until: v.nullable(v.string()) });
const UserIdParams = IdParam("user_id");

/** PATCH /admin/users/{id} and PATCH /users/{id}. */
export const UserPatch = writeBody(
  { display_name: v.optional(DisplayName), email: v.optional(Email), role: v.optional(RoleName), is_active: v.optional(v.boolean()) },
  USER_READ_ONLY,
);

const UserCreate = writeBody(
  { email: Email, password: v.optional(Password), display_name: v.optional(DisplayName), role: RoleName, must_change_password: v.optional(v.boolean()) },
  USER_READ_ONLY,
);

/** The handlers PATCH and DELETE share with /users/{id}. */
export async function patchUser(c: Context<AppEnv>, userId: number, body: v.InferOutput<typeof UserPatch>): Promise<Response> {
  return c.json(await updateUser({ ctx: verbContext(c), input: { userId, ...body } }));
}

const DELETE_SPEC = { action: DELETE_USER_ACTION };

export async function removeUser(c: Context<AppEnv>, userId: number): Promise<Response> {
  return confirmed(c, DELETE_SPEC, (ctx) => deleteUser({ ctx, input: { userId } }));
}

/** DELETE /admin/users/{id} and /users/{id}: one description for both. */
export const DELETE_USER_DOC = {
  summary: "Delete a user",
  description: `${confirmationDoc(DELETE_SPEC)} The caller's own account and the last active administrator cannot be deleted (409).`,
  response: { schema: v.object({ detail: v.string(), id: v.number() }) },
  errors: [409, 428],
};

export function adminUsersRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/admin/users", tag: "admin-users", scope: listUsers.scope,
      summary: "List users (search q on email and display name; filters role, is_active)",
      query: listQuery(USER_SORTS, { role: v.optional(v.string()), is_active: v.optional(BooleanParam) }),
      response: { schema: listResponse(AdminUser) },
    },
    async (c, { query }) => c.json(await listUsers({ ctx: verbContext(c), input: query })),
  );

  for (const path of ["/api/v1/admin/users", "/api/v1/admin/users/local"]) {
    route(
      app,
      {
        method: "post", path, tag: "admin-users", scope: createUser.scope,
        summary: "Create a local user",
        description: "Without a password the account gets a random one: its owner signs in after an invite or a password reset. must_change_password defaults to true.",
        body: UserCreate, response: { status: 201, schema: AdminUser }, errors: [409],
      },
      async (c, { body }) => c.json(await createUser({ ctx: verbContext(c), input: body }), 201),
    );
  }

  route(
    app,
    {
      method: "patch", path: "/api/v1/admin/users/:user_id", tag: "admin-users", scope: updateUser.scope,
      summary: "Change a user's display name, email, role or active flag",
      description: "Demoting or deactivating the last active administrator answers 409. Deactivation signs the user out everywhere.",
      params: UserIdParams, body: UserPatch, response: { schema: AdminUser }, errors: [409],
    },
    async (c, { params, body }) => patchUser(c, params.user_id!, body),
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/admin/users/:user_id", tag: "admin-users", scope: deleteUser.scope, params: UserIdParams, ...DELETE_USER_DOC,
    },
    async (c, { params }) => removeUser(c, params.user_id!),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/users/:user_id/unlock", tag: "admin-users", scope: unlockUser.scope,
      summary: "Lift a sign-in lockout (clears failed sign-ins and locked_until)",
      params: UserIdParams, response: { schema: AdminUser },
    },
    async (c, { params }) => c.json(await unlockUser({ ctx: verbContext(c), input: { userId: params.user_id! } })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/users/:user_id/reset-password", tag: "admin-users", scope: resetPassword.scope,
      summary: "Administrator-mediated password reset",
      description: "Sets new_password, or generates a temporary password returned once; the user must change it at the next sign-in and is signed out everywhere.",
      params: UserIdParams,
      body: v.optional(v.object({ new_password: v.optional(Password) }), {}),
      response: { schema: v.object({ user: AdminUser, temporary_password: v.nullable(v.string()), sessions_revoked: v.number() }) },
    },
    async (c, { params, body }) => c.json(await resetPassword({ ctx: verbContext(c), input: { userId: params.user_id!, ...body } })),
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/admin/users/:user_id/sessions", tag: "admin-users", scope: revokeUserSessions.scope,
      summary: "Sign a user out everywhere (their sessions and any masquerade they opened)",
      params: UserIdParams, response: { schema: v.object({ detail: v.string(), revoked: v.number() }) },
    },
    async (c, { params }) => {
      const { revoked } = await revokeUserSessions({ ctx: verbContext(c), input: { userId: params.user_id! } });
      return c.json({ detail: `Revoked ${revoked} session(s) of user ${params.user_id!}.`, revoked });
    },
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/users/:user_id/masquerade", tag: "admin-users", scope: masquerade.scope,
      summary: "Act as a non-administrator for a limited time (answers like a sign-in)",
      description: `Opens a session for the user lasting \`minutes\` (1-${MASQUERADE_MAX_MINUTES}, default setting masquerade_minutes), marked with masquerade_by and audited. Not for administrators or oneself.`,
      params: UserIdParams,
      body: v.optional(v.object({ minutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MASQUERADE_MAX_MINUTES))) }), {}),
      response: { schema: v.object({ ...SessionResponse.entries, masquerade: v.object({ by: v.number(), expires_at: v.string() }) }) },
      errors: [409],
    },
    async (c, { params, body }) => {
      const result = await masquerade(await signInArgs(c, { userId: params.user_id!, ...body }));
      setSessionCookies(c, result.session);
      return c.json({ token: result.session.token, user: result.user, csrf_token: result.session.csrfToken, masquerade: result.masquerade });
    },
  );
}
