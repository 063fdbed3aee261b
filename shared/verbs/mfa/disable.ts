// POST /auth/mfa/disable: needs the current password and a valid code; clears the secret and the backup codes.
import { eq } from "drizzle-orm";
import { mfaBackupCodes, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { confirmPassword, requireSelfWrite } from "../account/self.ts";
import { findUser } from "../admin-users/user-rows.ts";
import { defineVerb } from "../verb.ts";
import { withSecondFactor } from "./second-factor.ts";

export const disableMfa = defineVerb<{ password: string; code: string }, { detail: string }>(
  {
    scope: requireSelfWrite,
    prepare: async (ctx, input) => {
      const user = await findUser(ctx.db, requireSelfWrite(ctx).userId);
      if (!user.mfa_enabled) throw ApiError.conflict("MFA is not enabled for this account.");
      await confirmPassword(ctx, user, input.password, "mfa.disable_denied");
    },
  },
  async (s, input) =>
    withSecondFactor(s, requireSelfWrite(s.ctx).userId, { code: input.code, stage: "disable" }, async (locked) => {
      await s.tx
        .update(users)
        .set({ mfa_enabled: false, mfa_secret: null, mfa_pending_secret: null, mfa_last_step: null, updated_at: s.now })
        .where(eq(users.id, locked.id));
      await s.tx.delete(mfaBackupCodes).where(eq(mfaBackupCodes.user_id, locked.id));
      s.audit({
        action: "mfa.disabled",
        category: "security",
        level: "warning",
        entity_type: "user",
        entity_id: locked.id,
        diff: { before: { mfa_enabled: true }, after: { mfa_enabled: false } },
      });
      return { detail: "MFA is disabled; the secret and the backup codes are deleted." };
    }),
);
