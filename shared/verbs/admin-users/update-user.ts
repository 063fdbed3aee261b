// PATCH /admin/users/{id} and PATCH /users/{id}: profile, role and active flag. Demoting or deactivating
// the last active administrator is refused; deactivation signs the user out at once (their API tokens
// stay but are refused while the account is inactive, see shared/identity/resolve.ts).
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { endAllSessions } from "./end-sessions.ts";
import { assertAnotherAdminRemains } from "./last-admin.ts";
import { assertRoleExists } from "./roles.ts";
import { type AdminUser, adminUserOf, assertEmailFree, lockUser, rethrowEmailTaken } from "./user-rows.ts";

export interface UpdateUserInput {
  userId: number;
  display_name?: string | null | undefined;
  email?: string | undefined;
  role?: string | undefined;
  is_active?: boolean | undefined;
}

type Changes = Partial<Pick<typeof users.$inferSelect, "display_name" | "email" | "role" | "is_active">>;

export const updateUser = defineVerb<UpdateUserInput, AdminUser>({ scope: "admin:*" }, async (s, input) => {
  const before = await lockUser(s.tx, input.userId);
  const changes: Changes = {};
  if (input.display_name !== undefined && input.display_name !== before.display_name) changes.display_name = input.display_name;
  if (input.email !== undefined && input.email !== before.email) changes.email = input.email;
  if (input.role !== undefined && input.role !== before.role) changes.role = input.role;
  if (input.is_active !== undefined && input.is_active !== before.is_active) changes.is_active = input.is_active;
  if (Object.keys(changes).length === 0) return adminUserOf(s.tx, before);

  if (changes.role !== undefined) await assertRoleExists(s.tx, changes.role);
  if (changes.email !== undefined) await assertEmailFree(s.tx, changes.email, before.id);
  if (changes.is_active === false) await assertAnotherAdminRemains(s.tx, before, "deactivated");
  else if (changes.role !== undefined) await assertAnotherAdminRemains(s.tx, before, "demoted");

  const [after] = await s.tx
    .update(users)
    .set({ ...changes, updated_at: s.now })
    .where(eq(users.id, before.id))
    .returning()
    .catch(rethrowEmailTaken(changes.email ?? before.email));
  const entity = { category: "security", entity_type: "user", entity_id: before.id } as const;
  if (changes.role !== undefined)
    s.audit({
      ...entity,
      action: "user.role_changed",
      level: "warning",
      diff: { before: { role: before.role }, after: { role: changes.role } },
    });
  if (changes.is_active !== undefined) {
    const revoked = changes.is_active ? 0 : await endAllSessions(s, before.id);
    s.audit({
      ...entity,
      action: changes.is_active ? "user.activated" : "user.deactivated",
      level: "warning",
      diff: { before: { is_active: before.is_active }, after: { is_active: changes.is_active }, sessions_revoked: revoked },
    });
  }
  const profile = (["display_name", "email"] as const).filter((k) => k in changes);
  if (profile.length > 0)
    s.audit({
      ...entity,
      action: "user.updated",
      diff: {
        before: Object.fromEntries(profile.map((k) => [k, before[k]])),
        after: Object.fromEntries(profile.map((k) => [k, changes[k]])),
      },
    });
  return adminUserOf(s.tx, after!);
});
