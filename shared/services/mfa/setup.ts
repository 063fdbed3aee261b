// POST /auth/mfa/setup: a new TOTP secret, pending until a code from the authenticator activates it.
import { eq } from "drizzle-orm";
import { generateTotpSecret, otpauthUri } from "../../auth/totp.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import type { VerbContext } from "../verb-context.ts";
import { requireSelfWrite } from "../me/self.ts";
import { runInTransaction } from "../verb.ts";
import { MFA_ISSUER } from "./second-factor.ts";

export async function setupMfa({ ctx }: { ctx: VerbContext }): Promise<{ secret: string; otpauth_uri: string }> {
  const me = requireSelfWrite(ctx);
  return runInTransaction(ctx, {}, async (s) => {
    const user = await lockUser(s.tx, me.userId);
    if (user.mfa_enabled) throw ApiError.conflict("MFA is already enabled; disable it first to enrol another authenticator.");
    const secret = generateTotpSecret(20, ctx.random);
    await s.tx.update(users).set({ mfa_pending_secret: secret, updated_at: s.now }).where(eq(users.id, user.id));
    s.audit({ action: "mfa.setup", category: "security", entity_type: "user", entity_id: user.id });
    return { secret, otpauth_uri: otpauthUri({ secret, account: user.email, issuer: MFA_ISSUER }) };
  });
}
