// Administrator user management: /admin/users* (list, create, change, delete, unlock, reset password,
// sign out everywhere, masquerade). PATCH and DELETE are shared with /users/{id} (users/user-routes.ts).
import type { Context, Hono } from "hono";
import type * as v from "valibot";
import {
  AdminUser,
  AdminUserList,
  MasqueradeBody,
  MasqueradeSession,
  PasswordReset,
  ResetPasswordBody,
  UserCreate,
  UserDeleted,
  UserListQuery,
  UserPatch,
  UserSessionsRevoked,
} from "../../../shared/schemas/admin-users.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { createUser } from "../../../shared/verbs/admin-users/create-user.ts";
import { DELETE_USER_ACTION, deleteUser } from "../../../shared/verbs/admin-users/delete-user.ts";
import { listUsers } from "../../../shared/verbs/admin-users/list-users.ts";
import { MASQUERADE_MAX_MINUTES, masquerade } from "../../../shared/verbs/admin-users/masquerade.ts";
import { resetPassword } from "../../../shared/verbs/admin-users/reset-password.ts";
import { revokeUserSessions } from "../../../shared/verbs/admin-users/revoke-user-sessions.ts";
import { unlockUser } from "../../../shared/verbs/admin-users/unlock-user.ts";
import { updateUser } from "../../../shared/verbs/admin-users/update-user.ts";
import { confirmationDoc, confirmed, type Reply } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { sessionAnswer } from "../auth/respond.ts";
import { signInArgs } from "../auth/sign-in-args.ts";

const UserIdParams = IdParam("user_id");

const DELETE_SPEC = { action: DELETE_USER_ACTION };

/** Answered by confirmed() through the route's reply (a replay answers the stored outcome). */
export async function removeUser(c: Context<AppEnv>, userId: number, reply: Reply<v.InferInput<typeof UserDeleted>>): Promise<Response> {
  return confirmed(c, DELETE_SPEC, reply, (ctx) => deleteUser({ ctx, input: { userId } }));
}

/** DELETE /admin/users/{id} and /users/{id}: one description for both. */
export const DELETE_USER_DOC = {
  summary: "Delete a user",
  description: `${confirmationDoc(DELETE_SPEC)} The caller's own account and the last active administrator cannot be deleted (409).`,
  response: { schema: UserDeleted },
  errors: [409, 428],
};

export function adminUsersRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/users",
      tag: "admin-users",
      scope: listUsers.scope,
      summary: "List users (search q on email and display name; filters role, is_active)",
      query: UserListQuery,
      response: { schema: AdminUserList },
    },
    async (c, { query, reply }) => reply(await listUsers({ ctx: verbContext(c), input: query })),
  );

  for (const path of ["/api/v1/admin/users", "/api/v1/admin/users/local"]) {
    route(
      app,
      {
        method: "post",
        path,
        tag: "admin-users",
        scope: createUser.scope,
        summary: "Create a local user",
        description:
          "Without a password the account gets a random one: its owner signs in after an invite or a password reset. must_change_password defaults to true.",
        body: UserCreate,
        response: { status: 201, schema: AdminUser },
        errors: [409],
      },
      async (c, { body, reply }) => reply(await createUser({ ctx: verbContext(c), input: body })),
    );
  }

  route(
    app,
    {
      method: "patch",
      path: "/api/v1/admin/users/:user_id",
      tag: "admin-users",
      scope: updateUser.scope,
      summary: "Change a user's display name, email, role or active flag",
      description: "Demoting or deactivating the last active administrator answers 409. Deactivation signs the user out everywhere.",
      params: UserIdParams,
      body: UserPatch,
      response: { schema: AdminUser },
      errors: [409],
    },
    async (c, { params, body, reply }) => reply(await updateUser({ ctx: verbContext(c), input: { userId: params.user_id!, ...body } })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/admin/users/:user_id",
      tag: "admin-users",
      scope: deleteUser.scope,
      params: UserIdParams,
      ...DELETE_USER_DOC,
    },
    async (c, { params, reply }) => removeUser(c, params.user_id!, reply),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/users/:user_id/unlock",
      tag: "admin-users",
      scope: unlockUser.scope,
      summary: "Lift a sign-in lockout (clears failed sign-ins and locked_until)",
      params: UserIdParams,
      response: { schema: AdminUser },
    },
    async (c, { params, reply }) => reply(await unlockUser({ ctx: verbContext(c), input: { userId: params.user_id! } })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/users/:user_id/reset-password",
      tag: "admin-users",
      scope: resetPassword.scope,
      summary: "Administrator-mediated password reset",
      description:
        "Sets new_password, or generates a temporary password returned once; the user must change it at the next sign-in and is signed out everywhere.",
      params: UserIdParams,
      body: ResetPasswordBody,
      response: { schema: PasswordReset },
    },
    async (c, { params, body, reply }) => reply(await resetPassword({ ctx: verbContext(c), input: { userId: params.user_id!, ...body } })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/admin/users/:user_id/sessions",
      tag: "admin-users",
      scope: revokeUserSessions.scope,
      summary: "Sign a user out everywhere (their sessions and any masquerade they opened)",
      params: UserIdParams,
      response: { schema: UserSessionsRevoked },
    },
    async (c, { params, reply }) => {
      const { revoked } = await revokeUserSessions({ ctx: verbContext(c), input: { userId: params.user_id! } });
      return reply({ detail: `Revoked ${revoked} session(s) of user ${params.user_id!}.`, revoked });
    },
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/users/:user_id/masquerade",
      tag: "admin-users",
      scope: masquerade.scope,
      summary: "Act as a non-administrator for a limited time (answers like a sign-in)",
      description: `Opens a session for the user lasting \`minutes\` (1-${MASQUERADE_MAX_MINUTES}, default setting masquerade_minutes), marked with masquerade_by and audited. Not for administrators or oneself.`,
      params: UserIdParams,
      body: MasqueradeBody,
      response: { schema: MasqueradeSession },
      errors: [409],
    },
    async (c, { params, body, reply }) => {
      const result = await masquerade(await signInArgs(c, { userId: params.user_id!, ...body }));
      return reply({ ...sessionAnswer(c, { kind: "session", ...result }), masquerade: result.masquerade });
    },
  );
}
