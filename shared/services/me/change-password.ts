// PATCH /users/me/password: the current password, then a new one that passes the policy; every other
// session of the user is signed out, the caller's own stays.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { findUser } from "../admin-users/user-rows.ts";
import { revokeAllSessions } from "../auth/sessions.ts";
import type { VerbContext } from "../verb-context.ts";
import { runInTransaction } from "../verb.ts";
import { newPasswordHash } from "./new-password.ts";
import { confirmPassword, requireSelfWrite } from "./self.ts";

export async function changeMyPassword({
  ctx,
  input,
}: {
  ctx: VerbContext;
  input: { current_password: string; new_password: string };
}): Promise<{ detail: string; revoked_sessions: number }> {
  const me = requireSelfWrite(ctx);
  const user = await findUser(ctx.db, me.userId);
  await confirmPassword(ctx, user, input.current_password, "password.change_denied");
  const password_hash = await newPasswordHash(user, input.new_password, "new_password");
  return runInTransaction(ctx, {}, async (s) => {
    await s.tx.update(users).set({ password_hash, must_change_password: false, updated_at: s.now }).where(eq(users.id, user.id));
    const revoked = await revokeAllSessions(s, user.id, me.sessionId);
    s.audit({ action: "password.changed", category: "security", entity_type: "user", entity_id: user.id, diff: { revoked_sessions: revoked } });
    return { detail: "Password changed; your other sessions are signed out.", revoked_sessions: revoked };
  });
}
