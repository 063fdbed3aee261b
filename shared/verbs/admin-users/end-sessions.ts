// Signing a user out everywhere: their own sessions, and any masquerade session they opened as an
// administrator (those act for someone else but were started by this person).
import { and, eq, isNull } from "drizzle-orm";
import { sessions } from "../../db/schema/index.ts";
import { revokeAllSessions } from "../auth/sessions.ts";
import type { VerbScope } from "../verb.ts";

export async function endAllSessions(s: VerbScope, userId: number): Promise<number> {
  const own = await revokeAllSessions(s, userId);
  const masquerades = await s.tx
    .update(sessions)
    .set({ revoked_at: s.now })
    .where(and(eq(sessions.masquerade_by, userId), isNull(sessions.revoked_at)))
    .returning({ id: sessions.id });
  return own + masquerades.length;
}
