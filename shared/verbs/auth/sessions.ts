// Ending sessions: one (logout, revoke one of mine), or all of a user's (admin, password change).
import { and, eq, isNull, ne } from "drizzle-orm";
import { sessions, users } from "../../db/schema/index.ts";
import type { VerbScope } from "../verb.ts";
import { forgetFailures } from "./login-failures.ts";

export async function revokeSession(s: VerbScope, sessionId: string, userId: number): Promise<boolean> {
  const rows = await s.tx
    .update(sessions)
    .set({ revoked_at: s.now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.user_id, userId), isNull(sessions.revoked_at)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Revokes every live session of a user, except `keep` (the caller's own, on a password change). */
export async function revokeAllSessions(s: VerbScope, userId: number, keep?: string): Promise<number> {
  const rows = await s.tx
    .update(sessions)
    .set({ revoked_at: s.now })
    .where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at), keep ? ne(sessions.id, keep) : undefined))
    .returning({ id: sessions.id });
  return rows.length;
}

/**
 * A password set by someone who proved a right to it without the old one (a forced change, a
 * vault-key recovery): the new hash, the lockout and the forced-change flag cleared, every session
 * ended. Answers how many sessions were revoked.
 */
export async function replacePassword(s: VerbScope, userId: number, passwordHash: string): Promise<number> {
  await s.tx
    .update(users)
    .set({ password_hash: passwordHash, must_change_password: false, failed_logins: 0, locked_until: null, updated_at: s.now })
    .where(eq(users.id, userId));
  await forgetFailures(s.tx, userId);
  return revokeAllSessions(s, userId);
}
