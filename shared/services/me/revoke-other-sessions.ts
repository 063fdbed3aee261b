// DELETE /users/me/sessions: signs out everywhere else; the session making the request stays.
import { revokeAllSessions } from "../auth/sessions.ts";
import type { VerbContext } from "../verb-context.ts";
import { runInTransaction } from "../verb.ts";
import { requireSelfWrite } from "./self.ts";

export async function revokeMyOtherSessions({ ctx }: { ctx: VerbContext }): Promise<{ revoked: number }> {
  const me = requireSelfWrite(ctx);
  return runInTransaction(ctx, {}, async (s) => {
    const revoked = await revokeAllSessions(s, me.userId, me.sessionId);
    if (revoked > 0) s.audit({ action: "sessions.revoked", category: "security", entity_type: "user", entity_id: me.userId, diff: { revoked, kept: me.sessionId } });
    return { revoked };
  });
}
