// POST /admin/users/{id}/reset-password: the administrator-mediated recovery of spec 7.3 (there is no
// self-service reset). Sets the given password or a generated one shown once, makes the user change it at
// the next sign-in, lifts any lockout and signs the user out everywhere.
import { eq } from "drizzle-orm";
import { hashPassword, validatePasswordPolicy } from "../../auth/password.ts";
import { users } from "../../db/schema/index.ts";
import { forgetFailures } from "../auth/login-failures.ts";
import { passwordProblems } from "../auth/password-problems.ts";
import { defineVerb } from "../verb.ts";
import { endAllSessions } from "./end-sessions.ts";
import { randomPassword } from "./random-password.ts";
import { type AdminUser, adminUserOf, findUser, lockUser } from "./user-rows.ts";

export interface ResetPasswordResult {
  user: AdminUser;
  /** The generated password, only when none was given: shown this once, never stored in clear. */
  temporary_password: string | null;
  sessions_revoked: number;
}

export const resetPassword = defineVerb<
  { userId: number; new_password?: string | undefined },
  ResetPasswordResult,
  { temporary: string | null; password_hash: string }
>(
  {
    scope: "admin:*",
    // The policy check and the slow hash come before the transaction.
    prepare: async (ctx, input) => {
      const target = await findUser(ctx.db, input.userId);
      if (input.new_password !== undefined) passwordProblems(validatePasswordPolicy(input.new_password, target.email), "new_password");
      const temporary = input.new_password === undefined ? randomPassword(ctx.random) : null;
      return { temporary, password_hash: await hashPassword(input.new_password ?? temporary!) };
    },
  },
  async (s, input, { temporary, password_hash }) => {
    await lockUser(s.tx, input.userId);
    const [after] = await s.tx
      .update(users)
      .set({ password_hash, must_change_password: true, failed_logins: 0, locked_until: null, updated_at: s.now })
      .where(eq(users.id, input.userId))
      .returning();
    await forgetFailures(s.tx, input.userId);
    const revoked = await endAllSessions(s, input.userId);
    s.audit({
      action: "user.password_reset",
      category: "security",
      level: "warning",
      entity_type: "user",
      entity_id: input.userId,
      diff: { password: temporary ? "generated" : "set by administrator", must_change_password: true, sessions_revoked: revoked },
    });
    return { user: await adminUserOf(s.tx, after!), temporary_password: temporary, sessions_revoked: revoked };
  },
);
