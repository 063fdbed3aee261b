// DELETE /admin/users/{id} and DELETE /users/{id}. High-impact: the route runs this behind the
// confirmation headers (functions/confirmation.ts). Never the caller's own account, never the last active
// administrator. Sessions, tokens and backup codes go with the row (foreign keys cascade); the audit
// history stays.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { removeAvatar } from "../account/avatar-store.ts";
import { defineVerb } from "../verb.ts";
import { assertAnotherAdminRemains } from "./last-admin.ts";
import { lockUser } from "./user-rows.ts";

export const DELETE_USER_ACTION = "delete-user";

export const deleteUser = defineVerb<{ userId: number }, { detail: string; id: number }>({ scope: "admin:*" }, async (s, input) => {
  if (s.ctx.actor?.userId === input.userId) throw ApiError.conflict("You cannot delete your own account here; ask another administrator.");
  const before = await lockUser(s.tx, input.userId);
  await assertAnotherAdminRemains(s.tx, before, "deleted");
  await s.tx.delete(users).where(eq(users.id, before.id));
  await removeAvatar(s.tx, before.avatar_path);
  s.audit({
    action: "user.deleted",
    category: "security",
    level: "warning",
    entity_type: "user",
    entity_id: before.id,
    diff: { before: { email: before.email, display_name: before.display_name, role: before.role, is_active: before.is_active } },
  });
  return { detail: `User ${before.id} was deleted.`, id: before.id };
});
