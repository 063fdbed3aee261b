// Who may use the caller's own account (the access rules of the account verbs), and confirming the
// current password. (Loading and locking rows: admin-users/user-rows.ts.)
import { verifyPassword } from "../../auth/password.ts";
import { ApiError } from "../../errors.ts";
import type { UserRow } from "../admin-users/user-rows.ts";
import type { VerbContext } from "../verb-context.ts";
import { recordRefusal } from "../verb.ts";

export interface Self {
  userId: number;
  /** The caller's own session (absent for API tokens). */
  sessionId?: string | undefined;
}

/** Any credential that belongs to a user (session or API token) may read its own account. */
export function requireOwnAccount(ctx: VerbContext): Self {
  const actor = ctx.actor;
  if (!actor) throw ApiError.unauthorized("Authentication required.");
  if (actor.userId == null) throw ApiError.forbidden("This operation needs a signed-in user account.");
  return { userId: actor.userId, sessionId: actor.sessionId };
}

/**
 * Changing one's own account needs the user's own sign-in: an API token (however narrow), an
 * administrator masquerading as the user and the shared read-only demo account are all refused.
 */
export function requireSelfWrite(ctx: VerbContext): Self & { sessionId: string } {
  const self = requireOwnAccount(ctx);
  const actor = ctx.actor!;
  if (actor.kind !== "session" || !self.sessionId)
    throw ApiError.forbidden("Changing your own account needs a signed-in session, not an API token.");
  if (actor.masqueradeBy != null) throw ApiError.forbidden("Not while masquerading: only the user can change their own account.");
  if (actor.role === "demo") throw ApiError.forbidden("The demo account is read-only.");
  return { userId: self.userId, sessionId: self.sessionId };
}

/**
 * Confirms the current password (in a verb's `prepare`: the check is slow and comes before any write);
 * a wrong one is audited as `action` (a denied confirmation) and is 403.
 */
export async function confirmPassword(ctx: VerbContext, user: UserRow, password: string, action: string): Promise<void> {
  if ((await verifyPassword(password, user.password_hash)).ok) return;
  const reason = user.password_hash ? "wrong password" : "no password";
  await recordRefusal({
    ctx,
    input: [{ action, category: "security", level: "warning", entity_type: "user", entity_id: user.id, diff: { reason } }],
  });
  throw ApiError.forbidden(user.password_hash ? "The current password is wrong." : "This account has no password to confirm with.");
}
