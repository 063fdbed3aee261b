import { defineVerb } from "../verb.ts";
import { revokeSession } from "./sessions.ts";

/** Ends the caller's session, if the caller is signed in with one; a no-op otherwise. */
export const logout = defineVerb({ scope: "public" }, async (s) => {
  const actor = s.ctx.actor;
  if (actor?.kind !== "session" || !actor.sessionId || actor.userId == null) return;
  if (await revokeSession(s, actor.sessionId, actor.userId))
    s.audit({ action: "logout", category: "security", entity_type: "session", entity_id: actor.sessionId });
});
