// /users/{id}: read (administrators anyone, others only themselves), change and delete (administrators,
// the same verbs and rules as /admin/users/{id}). The id is digits only, so /users/me stays its own route.
import type { Hono } from "hono";
import { AdminUser, AnyUser, UserPatch } from "../../../shared/schemas/admin-users.ts";
import { deleteUser } from "../../../shared/verbs/admin-users/delete-user.ts";
import { getUser } from "../../../shared/verbs/admin-users/get-user.ts";
import { updateUser } from "../../../shared/verbs/admin-users/update-user.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { DELETE_USER_DOC, removeUser } from "../admin/users-routes.ts";

const PATH = "/api/v1/users/:id{[0-9]+}";
const Params = IdParam("id");

export function userRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: PATH,
      tag: "users",
      scope: getUser.scope,
      summary: "A user: administrators read anyone, everyone else only themselves",
      params: Params,
      response: { schema: AnyUser },
    },
    async (c, { params, reply }) => reply(await getUser({ ctx: verbContext(c), input: { userId: params.id! } })),
  );

  route(
    app,
    {
      method: "patch",
      path: PATH,
      tag: "users",
      scope: updateUser.scope,
      summary: "Change a user (as PATCH /admin/users/{user_id})",
      params: Params,
      body: UserPatch,
      response: { schema: AdminUser },
      errors: [409],
    },
    async (c, { params, body, reply }) => reply(await updateUser({ ctx: verbContext(c), input: { userId: params.id!, ...body } })),
  );

  route(
    app,
    {
      method: "delete",
      path: PATH,
      tag: "users",
      scope: deleteUser.scope,
      params: Params,
      ...DELETE_USER_DOC,
    },
    async (c, { params, reply }) => removeUser(c, params.id!, reply),
  );
}
