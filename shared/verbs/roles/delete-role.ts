// DELETE /settings/roles/{role_id}: refused with 409 while any user still has the role (the answer names them).
import { asc, eq } from "drizzle-orm";
import { customRoles, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { defineVerb } from "../verb.ts";
import { lockCustomRole } from "./lock-custom-role.ts";

const NAMED = 20;

export const deleteRole = defineVerb({ scope: "admin:*" }, async (s, input: { roleId: number }) => {
  const role = await lockCustomRole(s, input.roleId);
  const holders = await s.tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.role, role.name))
    .orderBy(asc(users.id));
  if (holders.length > 0) {
    const named = holders
      .slice(0, NAMED)
      .map((u) => u.email)
      .join(", ");
    const more = holders.length > NAMED ? ` and ${holders.length - NAMED} more` : "";
    throw ApiError.conflict(
      `Role ${role.name} is still assigned to ${holders.length} user(s): ${named}${more}. Give them another role first.`,
      { users: holders },
    );
  }
  await s.tx.delete(customRoles).where(eq(customRoles.id, role.id));
  s.audit({
    action: "role.deleted",
    category: "security",
    entity_type: "role",
    entity_id: role.id,
    diff: { before: { name: role.name, description: role.description, scopes: role.scopes } },
  });
  return { detail: `Role ${role.name} deleted.` };
});
