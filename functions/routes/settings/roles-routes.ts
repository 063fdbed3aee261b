// Custom roles (spec 5.2): GET/POST /settings/roles, PUT/DELETE /settings/roles/{role_id}. Built-in roles
// are listed read-only.
import type { Hono } from "hono";
import { Detail } from "../../../shared/schemas/auth.ts";
import { RoleCreate, RoleIdParam, RoleUpdate, RoleView, RoleViews } from "../../../shared/schemas/roles.ts";
import { createRole } from "../../../shared/verbs/roles/create-role.ts";
import { deleteRole } from "../../../shared/verbs/roles/delete-role.ts";
import { listRoles } from "../../../shared/verbs/roles/list-roles.ts";
import { updateRole } from "../../../shared/verbs/roles/update-role.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function rolesRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/settings/roles",
      tag: "settings",
      scope: listRoles.scope,
      summary: "Roles: the built-in ones (read-only) and the custom ones, with their scopes",
      response: { schema: RoleViews },
    },
    async (c, { reply }) => reply(await listRoles({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/settings/roles",
      tag: "settings",
      scope: createRole.scope,
      summary: "Create a custom role from grantable scopes",
      body: RoleCreate,
      response: { status: 201, schema: RoleView },
      errors: [409],
    },
    async (c, { body, reply }) => reply(await createRole({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "put",
      path: "/api/v1/settings/roles/:role_id",
      tag: "settings",
      scope: updateRole.scope,
      summary: "Change a custom role (a rename moves its users along)",
      params: RoleIdParam,
      body: RoleUpdate,
      response: { schema: RoleView },
      errors: [409],
    },
    async (c, { params, body, reply }) => reply(await updateRole({ ctx: verbContext(c), input: { roleId: params.role_id, ...body } })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/settings/roles/:role_id",
      tag: "settings",
      scope: deleteRole.scope,
      summary: "Delete a custom role; 409 naming the users that still have it",
      params: RoleIdParam,
      response: { schema: Detail },
      errors: [409],
    },
    async (c, { params, reply }) => reply(await deleteRole({ ctx: verbContext(c), input: { roleId: params.role_id } })),
  );
}
