// POST /auth/mfa/backup-codes/regenerate: a valid code buys a fresh set; every older code stops working.
import type { VerbContext } from "../verb-context.ts";
import { requireSelfWrite } from "../me/self.ts";
import { issueBackupCodes, withSecondFactor } from "./second-factor.ts";

export async function regenerateBackupCodes({ ctx, input }: { ctx: VerbContext; input: { code: string } }): Promise<{ backup_codes: string[] }> {
  const me = requireSelfWrite(ctx);
  return withSecondFactor(ctx, me.userId, { code: input.code, stage: "regenerate" }, async (s, user, used) => {
    const backup_codes = await issueBackupCodes(s, user.id);
    s.audit({ action: "mfa.backup_codes_regenerated", category: "security", entity_type: "user", entity_id: user.id, diff: { confirmed_with: used, count: backup_codes.length } });
    return { backup_codes };
  });
}
