// POST /auth/mfa/verify: the second step of an MFA user's sign-in. The MFA token (its own audience, short
// lived) says whose password was right; a TOTP code or a backup code then completes the sign-in.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { AUDIENCE, verifyToken } from "../../identity/tokens.ts";
import { completeLogin, type SessionOutcome } from "../auth/login.ts";
import type { SignInClient } from "../auth/sign-in-client.ts";
import { defineVerb } from "../verb.ts";
import { spendSecondFactor } from "./second-factor.ts";

const REFUSED = "The MFA token or the code is invalid, expired or already used; sign in again if the token has expired.";

export const verifyMfa = defineVerb<{ mfa_token: string; code: string } & SignInClient, SessionOutcome>(
  { scope: "public" },
  async (s, input) => {
    const claims = await verifyToken(input.signingKey, AUDIENCE.mfa, input.mfa_token, s.now);
    const failed = (reason: string) => {
      const entity = claims ? { entity_type: "user", entity_id: claims.userId } : {};
      s.audit({ action: "mfa.failed", category: "security", level: "warning", ...entity, diff: { stage: "verify", reason } });
      return s.refuse(ApiError.unauthorized(REFUSED));
    };
    if (!claims) return failed("invalid mfa token");
    // Locked, so two verifications of one code cannot both pass; a deleted user is one more refusal.
    const [user] = await s.tx.select().from(users).where(eq(users.id, claims.userId)).for("update");
    if (!user?.is_active || !user.mfa_enabled) return failed("account not eligible");
    const used = await spendSecondFactor(s, user, input.code);
    if (!used) return failed("wrong code");
    s.audit({ action: "mfa.verified", category: "security", entity_type: "user", entity_id: user.id, diff: { method: used } });
    return completeLogin(s, input, user);
  },
);
