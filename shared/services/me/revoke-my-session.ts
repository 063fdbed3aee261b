// DELETE /users/me/sessions/{session_id}: ends one of the caller's sessions; anyone else's is "not found".
import { ApiError } from "../../errors.ts";
import { revokeSession } from "../auth/sessions.ts";
import type { VerbContext } from "../verb-context.ts";
import { runInTransaction } from "../verb.ts";
import { requireSelfWrite } from "./self.ts";

export async function revokeMySession({ ctx, input }: { ctx: VerbContext; input: { sessionId: string } }): Promise<{ detail: string }> {
  const me = requireSelfWrite(ctx);
  return runInTransaction(ctx, {}, async (s) => {
    if (!(await revokeSession(s, input.sessionId, me.userId))) throw ApiError.notFound("Session", input.sessionId);
    s.audit({ action: "session.revoked", category: "security", entity_type: "session", entity_id: input.sessionId, diff: { current: input.sessionId === me.sessionId } });
    return { detail: "Session revoked." };
  });
}
