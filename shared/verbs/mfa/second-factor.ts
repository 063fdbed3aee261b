// The second factor of an MFA user: a TOTP code (never the same time step twice) or one unused backup
// code. The caller holds the user's row lock (lockUser), so two requests cannot both spend one code.
import { and, eq, isNull } from "drizzle-orm";
import { generateBackupCodes, hashBackupCode, verifyBackupCode } from "../../auth/backup-codes.ts";
import { verifyTotp } from "../../auth/totp.ts";
import { mfaBackupCodes, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { lockUser, type UserRow } from "../admin-users/user-rows.ts";
import type { Refusal, VerbScope } from "../verb.ts";

export type FactorUsed = "totp" | "backup_code";

export const BACKUP_CODE_COUNT = 10;
export const MFA_ISSUER = "Infrastructure Inventory";

/** Checks `code` and spends it (records the TOTP step, or marks the backup code used); null when it is no good. */
export async function spendSecondFactor(s: VerbScope, user: UserRow, code: string): Promise<FactorUsed | null> {
  if (!user.mfa_secret) return null;
  const totp = verifyTotp(user.mfa_secret, code, s.now.getTime(), { lastStep: user.mfa_last_step });
  if (totp.ok) {
    await s.tx.update(users).set({ mfa_last_step: totp.step }).where(eq(users.id, user.id));
    return "totp";
  }
  const unused = await s.tx
    .select({ id: mfaBackupCodes.id, hash: mfaBackupCodes.code_hash })
    .from(mfaBackupCodes)
    .where(and(eq(mfaBackupCodes.user_id, user.id), isNull(mfaBackupCodes.used_at)));
  // Every stored code is compared, so the time taken does not say which one matched.
  let match: number | null = null;
  for (const row of unused) if (verifyBackupCode(code, row.hash) && match === null) match = row.id;
  if (match === null) return null;
  await s.tx.update(mfaBackupCodes).set({ used_at: s.now }).where(eq(mfaBackupCodes.id, match));
  return "backup_code";
}

/** Replaces the user's backup codes with a fresh set; the plaintext is returned to be shown once. */
export async function issueBackupCodes(s: VerbScope, userId: number): Promise<string[]> {
  await s.tx.delete(mfaBackupCodes).where(eq(mfaBackupCodes.user_id, userId));
  const codes = generateBackupCodes(BACKUP_CODE_COUNT, s.ctx.random);
  await s.tx.insert(mfaBackupCodes).values(codes.map((c) => ({ user_id: userId, code_hash: hashBackupCode(c), created_at: s.now })));
  return codes;
}

/**
 * For a signed-in MFA user changing their MFA, inside the verb's transaction: locks the row, spends
 * `code`, then runs `body`. A bad code is audited (mfa.failed) and refused with 403.
 */
export async function withSecondFactor<O>(
  s: VerbScope,
  userId: number,
  input: { code: string; stage: string },
  body: (user: UserRow, used: FactorUsed) => Promise<O>,
): Promise<O | Refusal> {
  const user = await lockUser(s.tx, userId);
  if (!user.mfa_enabled) throw ApiError.conflict("MFA is not enabled for this account.");
  const used = await spendSecondFactor(s, user, input.code);
  if (!used) {
    s.audit({
      action: "mfa.failed",
      category: "security",
      level: "warning",
      entity_type: "user",
      entity_id: user.id,
      diff: { stage: input.stage },
    });
    return s.refuse(ApiError.forbidden("The MFA code is wrong or was already used."));
  }
  return body(user, used);
}
