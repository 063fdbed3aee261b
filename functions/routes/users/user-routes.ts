// /users/{id}: read (administrators anyone, others only themselves), change and delete (administrators,
// the same verbs and rules as /admin/users/{id}). The id is digits only, so /users/me stays its own route.
import type { Hono } from "hono";
import * as v from "valibot";
import { deleteUser } from "../../../shared/verbs/admin-users/delete-user.ts";
import { getUser } from "../../../shared/verbs/admin-users/get-user.ts";
import { updateUser } from "../../../shared/verbs/admin-users/update-user.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { AdminUser, DELETE_USER_DOC, patchUser, removeUser, UserPatch } from "../admin/users-routes.ts";
import { PublicUser } from "../../../shared/schemas/auth.ts";

const PATH = "/api/v1/users/:id{[0-9]+}";
const Params = IdParam("id");

export function userRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: PATH, tag: "users", scope: getUser.scope,
      summary: "A user: administrators read anyone, everyone else only themselves",
      params: Params, response: { schema: v.union([AdminUser, PublicUser]) },
    },
    async (c, { params }) => c.json(await getUser({ ctx: verbContext(c), input: { userId: params.id! } })),
  );

  route(
    app,
    {
      method: "patch", path: PATH, tag: "users", scope: updateUser.scope,
      summary: "Change a user (as PATCH /admin/users/{user_id})",
      params: Params, body: UserPatch, response: { schema: AdminUser }, errors: [409],
    },
    async (c, { params, body }) => patchUser(c, params.id!, body),
  );

  route(
    app,
    {
      method: "delete", path: PATH, tag: "users", scope: deleteUser.scope, params: Params, ...DELETE_USER_DOC,
    },
    async (c, { params }) => removeUser(c, params.id!),
  );
}
