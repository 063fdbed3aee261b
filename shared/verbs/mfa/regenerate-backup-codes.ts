// POST /auth/mfa/backup-codes/regenerate: a valid code buys a fresh set; every older code stops working.
import { requireSelfWrite } from "../account/self.ts";
import { defineVerb } from "../verb.ts";
import { issueBackupCodes, withSecondFactor } from "./second-factor.ts";

export const regenerateBackupCodes = defineVerb<{ code: string }, { backup_codes: string[] }>(
  { scope: requireSelfWrite },
  async (s, input) =>
    withSecondFactor(s, requireSelfWrite(s.ctx).userId, { code: input.code, stage: "regenerate" }, async (user, used) => {
      const backup_codes = await issueBackupCodes(s, user.id);
      s.audit({
        action: "mfa.backup_codes_regenerated",
        category: "security",
        entity_type: "user",
        entity_id: user.id,
        diff: { confirmed_with: used, count: backup_codes.length },
      });
      return { backup_codes };
    }),
);
