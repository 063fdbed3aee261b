// POST /admin/users/{id}/masquerade: an administrator acts as a non-administrator, in a session of its own
// that is short (1-120 minutes), marked with the administrator's id (GET /auth/me shows masquerade_by)
// and audited as a warning. Refused for administrators, for oneself and for disabled accounts.
import { scopeAllows } from "../../auth/scopes.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { readSetting } from "../../settings/read.ts";
import { type IssuedSession, issueSession } from "../auth/issue-session.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import type { VerbContext } from "../verb-context.ts";
import { auditOnly, requireScope, runInTransaction } from "../verb.ts";
import { lockUser } from "./user-rows.ts";

export const MASQUERADE_MAX_MINUTES = 120;

// Refusals leave the transaction as values, so their audit entry is written after it (auditOnly).
const refusal = (status: 403 | 409, reason: string) => ({ refused: { status, reason } });

export interface MasqueradeResult {
  session: IssuedSession;
  user: PublicUser;
  masquerade: { by: number; expires_at: string };
}

export async function masquerade({
  ctx,
  input,
  signingKey,
  userAgent,
}: {
  ctx: VerbContext;
  input: { userId: number; minutes?: number | undefined };
  signingKey: Uint8Array;
  userAgent?: string | null;
}): Promise<MasqueradeResult> {
  requireScope(ctx, "admin:*");
  const adminId = ctx.actor?.userId;
  if (adminId == null) throw ApiError.forbidden("Masquerade needs a signed-in administrator account.");
  const refuse = async (status: 403 | 409, reason: string): Promise<never> => {
    await auditOnly(ctx, [{ action: "user.masquerade_denied", category: "security", level: "warning", entity_type: "user", entity_id: input.userId, diff: { reason } }]);
    throw status === 403 ? ApiError.forbidden(reason) : ApiError.conflict(reason);
  };
  if (input.userId === adminId) return refuse(403, "You cannot masquerade as yourself.");
  const outcome = await runInTransaction(ctx, {}, async (s) => {
    const target = await lockUser(s.tx, input.userId);
    const scopes = await roleScopes(s.tx, target.role);
    // Any role holding admin:* (a custom one too) counts as an administrator here.
    if (target.role === "admin" || scopeAllows(scopes, "admin:*")) return refusal(403, "You cannot masquerade as an administrator.");
    if (!target.is_active) return refusal(409, `User ${target.id} is disabled; enable the account first.`);
    const setting = await readSetting(s.tx, "masquerade_minutes");
    const minutes = input.minutes ?? Math.min(Math.max(1, Math.round(setting)), MASQUERADE_MAX_MINUTES);
    const session = await issueSession(s, signingKey, target.id, { userAgent, masqueradeBy: adminId, ttlSeconds: minutes * 60 });
    const expires_at = session.expiresAt.toISOString();
    s.audit({
      action: "user.masquerade",
      category: "security",
      level: "warning",
      entity_type: "user",
      entity_id: target.id,
      diff: { masquerade_by: adminId, target_email: target.email, minutes, expires_at },
    });
    return { session, user: publicUser(target, scopes), masquerade: { by: adminId, expires_at } };
  });
  if ("refused" in outcome) return refuse(outcome.refused.status, outcome.refused.reason);
  return outcome;
}
