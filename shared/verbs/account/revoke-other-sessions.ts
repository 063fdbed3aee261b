// DELETE /users/me/sessions: signs out everywhere else; the session making the request stays.
import { revokeAllSessions } from "../auth/sessions.ts";
import { defineVerb } from "../verb.ts";
import { requireSelfWrite } from "./self.ts";

export const revokeMyOtherSessions = defineVerb({ scope: requireSelfWrite }, async (s) => {
  const me = requireSelfWrite(s.ctx);
  const revoked = await revokeAllSessions(s, me.userId, me.sessionId);
  if (revoked > 0)
    s.audit({
      action: "sessions.revoked",
      category: "security",
      entity_type: "user",
      entity_id: me.userId,
      diff: { revoked, kept: me.sessionId },
    });
  return { revoked };
});
