// Custom roles (spec 5.2): GET/POST /settings/roles, PUT/DELETE /settings/roles/{role_id}. Built-in roles
// are listed read-only.
import type { Hono } from "hono";
import * as v from "valibot";
import { createRole } from "../../../shared/verbs/roles/create-role.ts";
import { deleteRole } from "../../../shared/verbs/roles/delete-role.ts";
import { listRoles } from "../../../shared/verbs/roles/list-roles.ts";
import { updateRole } from "../../../shared/verbs/roles/update-role.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { RoleView, Scopes } from "../../../shared/schemas/tokens.ts";

const RoleName = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9_-]{0,49}$/, "name must be a slug: a lower-case letter, then up to 49 lower-case letters, digits, - or _."),
);
const Description = v.nullish(v.pipe(v.string(), v.maxLength(500, "description must be at most 500 characters.")));
const RoleId = v.object({
  role_id: v.pipe(v.string(), v.regex(/^\d{1,9}$/, "role_id must be a positive integer."), v.transform(Number)),
});

export function rolesRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/settings/roles", tag: "settings", scope: listRoles.scope,
      summary: "Roles: the built-in ones (read-only) and the custom ones, with their scopes",
      response: { schema: v.array(RoleView) },
    },
    async (c) => c.json(await listRoles({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/settings/roles", tag: "settings", scope: createRole.scope,
      summary: "Create a custom role from grantable scopes",
      body: v.object({ name: RoleName, description: Description, scopes: Scopes }),
      response: { status: 201, schema: RoleView }, errors: [409],
    },
    async (c, { body }) => c.json(await createRole({ ctx: verbContext(c), input: body }), 201),
  );

  route(
    app,
    {
      method: "put", path: "/api/v1/settings/roles/:role_id", tag: "settings", scope: updateRole.scope,
      summary: "Change a custom role (a rename moves its users along)",
      params: RoleId,
      body: v.pipe(
        v.object({ name: v.optional(RoleName), description: Description, scopes: v.optional(Scopes) }),
        v.check((b) => b.name !== undefined || b.description !== undefined || b.scopes !== undefined, "Send at least one of name, description, scopes."),
      ),
      response: { schema: RoleView }, errors: [409],
    },
    async (c, { params, body }) => c.json(await updateRole({ ctx: verbContext(c), input: { roleId: params.role_id, ...body } })),
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/settings/roles/:role_id", tag: "settings", scope: deleteRole.scope,
      summary: "Delete a custom role; 409 naming the users that still have it",
      params: RoleId, response: { schema: v.object({ detail: v.string() }) }, errors: [409],
    },
    async (c, { params }) => c.json(await deleteRole({ ctx: verbContext(c), input: { roleId: params.role_id } })),
  );
}
