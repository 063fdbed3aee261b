import type { VerbContext } from "../verb-context.ts";
import { runInTransaction } from "../verb.ts";
import { revokeSession } from "./sessions.ts";

/** Ends the caller's session, if the caller is signed in with one; a no-op otherwise. */
export async function logout({ ctx }: { ctx: VerbContext }): Promise<void> {
  const actor = ctx.actor;
  if (actor?.kind !== "session" || !actor.sessionId || actor.userId == null) return;
  await runInTransaction(ctx, {}, async (s) => {
    if (await revokeSession(s, actor.sessionId!, actor.userId!))
      s.audit({ action: "logout", category: "security", entity_type: "session", entity_id: actor.sessionId! });
  });
}
