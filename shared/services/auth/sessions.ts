// Ending sessions: one (logout, revoke one of mine), or all of a user's (admin, password change).
import { and, eq, isNull, ne } from "drizzle-orm";
import { sessions } from "../../db/schema/index.ts";
import type { VerbScope } from "../verb.ts";

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
