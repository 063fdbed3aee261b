// POST /auth/mfa/setup: a new TOTP secret, pending until a code from the authenticator activates it.
import { eq } from "drizzle-orm";
import { generateTotpSecret, otpauthUri } from "../../auth/totp.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { requireSelfWrite } from "../account/self.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import { defineVerb } from "../verb.ts";
import { MFA_ISSUER } from "./second-factor.ts";

export const setupMfa = defineVerb({ scope: requireSelfWrite }, async (s): Promise<{ secret: string; otpauth_uri: string }> => {
  const user = await lockUser(s.tx, requireSelfWrite(s.ctx).userId);
  if (user.mfa_enabled) throw ApiError.conflict("MFA is already enabled; disable it first to enrol another authenticator.");
  const secret = generateTotpSecret(20, s.ctx.random);
  await s.tx.update(users).set({ mfa_pending_secret: secret, updated_at: s.now }).where(eq(users.id, user.id));
  s.audit({ action: "mfa.setup", category: "security", entity_type: "user", entity_id: user.id });
  return { secret, otpauth_uri: otpauthUri({ secret, account: user.email, issuer: MFA_ISSUER }) };
});
