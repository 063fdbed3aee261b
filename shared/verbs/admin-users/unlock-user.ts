// POST /admin/users/{id}/unlock: lifts a sign-in lockout before it runs out.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { forgetFailures } from "../auth/login-failures.ts";
import { defineVerb } from "../verb.ts";
import { type AdminUser, adminUserOf, lockUser } from "./user-rows.ts";

export const unlockUser = defineVerb<{ userId: number }, AdminUser>({ scope: "admin:*" }, async (s, { userId }) => {
  const before = await lockUser(s.tx, userId);
  const [after] = await s.tx
    .update(users)
    .set({ failed_logins: 0, locked_until: null, updated_at: s.now })
    .where(eq(users.id, userId))
    .returning();
  await forgetFailures(s.tx, userId);
  s.audit({
    action: "user.unlocked",
    category: "security",
    entity_type: "user",
    entity_id: userId,
    diff: {
      before: { failed_logins: before.failed_logins, locked_until: before.locked_until?.toISOString() ?? null },
      after: { failed_logins: 0, locked_until: null },
    },
  });
  return adminUserOf(s.tx, after!);
});
