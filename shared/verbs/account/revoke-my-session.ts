// DELETE /users/me/sessions/{session_id}: ends one of the caller's sessions; anyone else's is "not found".
import { ApiError } from "../../errors.ts";
import { revokeSession } from "../auth/sessions.ts";
import { defineVerb } from "../verb.ts";
import { requireSelfWrite } from "./self.ts";

export const revokeMySession = defineVerb<{ sessionId: string }, { detail: string }>({ scope: requireSelfWrite }, async (s, input) => {
  const me = requireSelfWrite(s.ctx);
  if (!(await revokeSession(s, input.sessionId, me.userId))) throw ApiError.notFound("Session", input.sessionId);
  s.audit({
    action: "session.revoked",
    category: "security",
    entity_type: "session",
    entity_id: input.sessionId,
    diff: { current: input.sessionId === me.sessionId },
  });
  return { detail: "Session revoked." };
});
