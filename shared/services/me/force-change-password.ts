// POST /auth/force-change-password: a user whose password must change signs in with the short-lived
// password-change token from /auth/login plus the new password. The flag it clears makes the token single-use.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { AUDIENCE, verifyToken } from "../../identity/tokens.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import { completeLogin, type LoginOutcome } from "../auth/login.ts";
import { revokeAllSessions } from "../auth/sessions.ts";
import { auditOnly } from "../verb.ts";
import { newPasswordHash } from "./new-password.ts";
import { runOrRefuse, type SignInRequest } from "./self.ts";

const REFUSED = "The password-change token is invalid, expired or already used; sign in again.";

export async function forceChangePassword({ ctx, input, signingKey, userAgent }: SignInRequest<{ change_token: string; new_password: string }>): Promise<LoginOutcome> {
  const claims = await verifyToken(signingKey, AUDIENCE.passwordChange, input.change_token, ctx.clock.now());
  const [user] = claims ? await ctx.db.select().from(users).where(eq(users.id, claims.userId)) : [];
  if (!user || !user.is_active || !user.must_change_password) {
    await auditOnly(ctx, [{ action: "password.change_failed", category: "security", level: "warning", entity_type: "user", entity_id: claims?.userId ?? null, diff: { reason: "invalid change token" } }]);
    throw ApiError.unauthorized(REFUSED);
  }
  const password_hash = await newPasswordHash(user, input.new_password, "new_password");
  return runOrRefuse(ctx, async (s) => {
    const locked = await lockUser(s.tx, user.id);
    // A concurrent request with the same token got here first.
    if (!locked.must_change_password) return ApiError.unauthorized(REFUSED);
    await s.tx
      .update(users)
      .set({ password_hash, must_change_password: false, failed_logins: 0, locked_until: null, updated_at: s.now })
      .where(eq(users.id, locked.id));
    const revoked = await revokeAllSessions(s, locked.id);
    s.audit({
      action: "password.changed", category: "security", entity_type: "user", entity_id: locked.id,
      diff: { forced: true, before: { must_change_password: true }, after: { must_change_password: false }, revoked_sessions: revoked },
    });
    return completeLogin(s, signingKey, locked, userAgent);
  });
}
