// PATCH /users/me/password: the current password, then a new one that passes the policy; every other
// session of the user is signed out, the caller's own stays.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { findUser } from "../admin-users/user-rows.ts";
import { revokeAllSessions } from "../auth/sessions.ts";
import { defineVerb } from "../verb.ts";
import { newPasswordHash } from "./new-password.ts";
import { confirmPassword, requireSelfWrite } from "./self.ts";

export const changeMyPassword = defineVerb<
  { current_password: string; new_password: string },
  { detail: string; revoked_sessions: number },
  string
>(
  {
    scope: requireSelfWrite,
    prepare: async (ctx, input) => {
      const user = await findUser(ctx.db, requireSelfWrite(ctx).userId);
      await confirmPassword(ctx, user, input.current_password, "password.change_denied");
      return newPasswordHash(user, input.new_password, "new_password");
    },
  },
  async (s, _input, password_hash) => {
    const me = requireSelfWrite(s.ctx);
    await s.tx.update(users).set({ password_hash, must_change_password: false, updated_at: s.now }).where(eq(users.id, me.userId));
    const revoked = await revokeAllSessions(s, me.userId, me.sessionId);
    s.audit({
      action: "password.changed",
      category: "security",
      entity_type: "user",
      entity_id: me.userId,
      diff: { revoked_sessions: revoked },
    });
    return { detail: "Password changed; your other sessions are signed out.", revoked_sessions: revoked };
  },
);
