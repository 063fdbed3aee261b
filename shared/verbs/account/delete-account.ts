// DELETE /auth/me: the caller removes their own account after confirming the password. Sessions, API
// tokens and backup codes go with the row (ON DELETE CASCADE); the audit history stays.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { assertAnotherAdminRemains } from "../admin-users/last-admin.ts";
import { findUser, lockUser } from "../admin-users/user-rows.ts";
import { defineVerb } from "../verb.ts";
import { removeAvatar } from "./avatar-store.ts";
import { confirmPassword, requireSelfWrite } from "./self.ts";

export const deleteMyAccount = defineVerb<{ password: string }, { detail: string }>(
  {
    scope: requireSelfWrite,
    prepare: async (ctx, input) => {
      const me = requireSelfWrite(ctx);
      await confirmPassword(ctx, await findUser(ctx.db, me.userId), input.password, "user.delete_denied");
    },
  },
  async (s) => {
    const me = requireSelfWrite(s.ctx);
    await assertAnotherAdminRemains(s.tx, await lockUser(s.tx, me.userId), "deleted");
    const [row] = await s.tx.delete(users).where(eq(users.id, me.userId)).returning();
    if (!row) throw ApiError.notFound("User", me.userId);
    await removeAvatar(s.tx, row.avatar_path);
    s.audit({
      action: "user.deleted",
      category: "security",
      level: "warning",
      entity_type: "user",
      entity_id: row.id,
      diff: { before: { email: row.email, role: row.role, display_name: row.display_name }, self: true },
    });
    return { detail: "Your account is deleted." };
  },
);
