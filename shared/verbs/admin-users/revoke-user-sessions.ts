// DELETE /admin/users/{id}/sessions: signs a user out everywhere; the next request with any of their
// sessions answers 401.
import { defineVerb } from "../verb.ts";
import { endAllSessions } from "./end-sessions.ts";
import { lockUser } from "./user-rows.ts";

export const revokeUserSessions = defineVerb<{ userId: number }, { revoked: number }>({ scope: "admin:*" }, async (s, { userId }) => {
  await lockUser(s.tx, userId);
  const revoked = await endAllSessions(s, userId);
  s.audit({
    action: "user.sessions_revoked",
    category: "security",
    level: "warning",
    entity_type: "user",
    entity_id: userId,
    diff: { sessions_revoked: revoked },
  });
  return { revoked };
});
