// POST /admin/users/{id}/masquerade: an administrator acts as a non-administrator, in a session of its own
// that is short (1-120 minutes), marked with the administrator's id (GET /auth/me shows masquerade_by)
// and audited as a warning. Refused (and the refusal audited) for administrators, for oneself and for
// disabled accounts.
import { scopeAllows } from "../../auth/scopes.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { readSetting } from "../../settings/read.ts";
import { type IssuedSession, issueSession } from "../auth/issue-session.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import type { SignInClient } from "../auth/sign-in-client.ts";
import { defineVerb } from "../verb.ts";
import { lockUser } from "./user-rows.ts";

export const MASQUERADE_MAX_MINUTES = 120;

export type MasqueradeInput = { userId: number; minutes?: number | undefined } & SignInClient;

export interface MasqueradeResult {
  session: IssuedSession;
  user: PublicUser;
  masquerade: { by: number; expires_at: string };
}

export const masquerade = defineVerb<MasqueradeInput, MasqueradeResult>({ scope: "admin:*" }, async (s, input) => {
  const adminId = s.ctx.actor?.userId;
  if (adminId == null) throw ApiError.forbidden("Masquerade needs a signed-in administrator account.");
  const refuse = (error: ApiError) => {
    s.audit({
      action: "user.masquerade_denied",
      category: "security",
      level: "warning",
      entity_type: "user",
      entity_id: input.userId,
      diff: { reason: error.detail },
    });
    return s.refuse(error);
  };
  if (input.userId === adminId) return refuse(ApiError.forbidden("You cannot masquerade as yourself."));
  const target = await lockUser(s.tx, input.userId);
  const scopes = await roleScopes(s.tx, target.role);
  // Any role holding admin:* (a custom one too) counts as an administrator here.
  if (target.role === "admin" || scopeAllows(scopes, "admin:*"))
    return refuse(ApiError.forbidden("You cannot masquerade as an administrator."));
  if (!target.is_active) return refuse(ApiError.conflict(`User ${target.id} is disabled; enable the account first.`));
  const setting = await readSetting(s.tx, "masquerade_minutes");
  const minutes = input.minutes ?? Math.min(Math.max(1, Math.round(setting)), MASQUERADE_MAX_MINUTES);
  const session = await issueSession(s, input.signingKey, target.id, {
    userAgent: input.userAgent,
    masqueradeBy: adminId,
    ttlSeconds: minutes * 60,
  });
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
