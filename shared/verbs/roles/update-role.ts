// PUT /settings/roles/{role_id}: changes a custom role. A rename carries its users along in the same
// transaction, so nobody silently drops to "no scopes".
import { eq } from "drizzle-orm";
import { customRoles, users } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { lockCustomRole } from "./lock-custom-role.ts";
import { checkRoleName, checkRoleScopes, nameTaken } from "./role-input.ts";
import { customRoleView } from "./role-view.ts";

export interface UpdateRoleInput {
  roleId: number;
  name?: string | undefined;
  description?: string | null | undefined;
  scopes?: string[] | undefined;
}

export const updateRole = defineVerb({ scope: "admin:*" }, async (s, input: UpdateRoleInput) => {
  const before = await lockCustomRole(s, input.roleId);
  const name = input.name === undefined ? before.name : checkRoleName(input.name);
  const scopes = input.scopes === undefined ? before.scopes : checkRoleScopes(s.ctx, input.scopes);
  const description = input.description === undefined ? before.description : input.description;
  const [row] = await s.tx
    .update(customRoles)
    .set({ name, description, scopes, updated_at: s.now })
    .where(eq(customRoles.id, before.id))
    .returning()
    .catch(nameTaken(name));
  let usersRenamed = 0;
  if (name !== before.name)
    usersRenamed = (
      await s.tx.update(users).set({ role: name, updated_at: s.now }).where(eq(users.role, before.name)).returning({ id: users.id })
    ).length;
  s.audit({
    action: "role.updated",
    category: "security",
    entity_type: "role",
    entity_id: before.id,
    diff: {
      before: { name: before.name, description: before.description, scopes: before.scopes },
      after: { name, description, scopes },
      ...(usersRenamed ? { users_renamed: usersRenamed } : {}),
    },
  });
  return customRoleView(row!);
});
