// POST /auth/mfa/activate: a code from the authenticator proves it holds the pending secret; the secret
// becomes the user's, and the backup codes are shown this once.
import { eq } from "drizzle-orm";
import { verifyTotp } from "../../auth/totp.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { requireSelfWrite } from "../account/self.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import { defineVerb } from "../verb.ts";
import { issueBackupCodes } from "./second-factor.ts";

export const activateMfa = defineVerb<{ code: string }, { backup_codes: string[] }>({ scope: requireSelfWrite }, async (s, input) => {
  const user = await lockUser(s.tx, requireSelfWrite(s.ctx).userId);
  if (user.mfa_enabled) throw ApiError.conflict("MFA is already enabled.");
  if (!user.mfa_pending_secret) throw ApiError.conflict("There is no pending MFA secret: start with POST /api/v1/auth/mfa/setup.");
  const check = verifyTotp(user.mfa_pending_secret, input.code, s.now.getTime());
  if (!check.ok) {
    s.audit({
      action: "mfa.failed",
      category: "security",
      level: "warning",
      entity_type: "user",
      entity_id: user.id,
      diff: { stage: "activate" },
    });
    return s.refuse(
      ApiError.validation([
        {
          loc: ["body", "code"],
          msg: "The code does not match the new secret; check the authenticator app and its clock.",
          type: "mfa_code",
        },
      ]),
    );
  }
  await s.tx
    .update(users)
    .set({ mfa_enabled: true, mfa_secret: user.mfa_pending_secret, mfa_pending_secret: null, mfa_last_step: check.step, updated_at: s.now })
    .where(eq(users.id, user.id));
  const backup_codes = await issueBackupCodes(s, user.id);
  s.audit({
    action: "mfa.enabled",
    category: "security",
    entity_type: "user",
    entity_id: user.id,
    diff: { before: { mfa_enabled: false }, after: { mfa_enabled: true, backup_codes: backup_codes.length } },
  });
  return { backup_codes };
});
