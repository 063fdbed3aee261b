// PATCH /users/me: display name, e-mail address and the console's language. Changing the address needs the current password
// (it is the sign-in name); only the fields given change, and the audit entry holds before and after.
import { and, eq, ne, sql } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { Locale } from "../../identity/locales.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { findUser, lockUser } from "../admin-users/user-rows.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import { defineVerb } from "../verb.ts";
import { confirmPassword, requireSelfWrite } from "./self.ts";

export interface ProfileInput {
  display_name?: string | null | undefined;
  email?: string | undefined;
  current_password?: string | undefined;
  locale?: Locale | null | undefined;
}

export const updateMyProfile = defineVerb<ProfileInput, PublicUser, boolean>(
  {
    scope: requireSelfWrite,
    // Answers whether the e-mail address changes; that needs the current password, confirmed here.
    prepare: async (ctx, input) => {
      const current = await findUser(ctx.db, requireSelfWrite(ctx).userId);
      const emailChanges = input.email !== undefined && input.email.toLowerCase() !== current.email.toLowerCase();
      if (emailChanges) {
        if (!input.current_password)
          throw ApiError.validation([
            { loc: ["body", "current_password"], msg: "Changing the email address needs the current password.", type: "missing" },
          ]);
        await confirmPassword(ctx, current, input.current_password, "user.email_change_denied");
      }
      return emailChanges;
    },
  },
  async (s, input, emailChanges) => {
    const user = await lockUser(s.tx, requireSelfWrite(s.ctx).userId);
    const changes: { display_name?: string | null; email?: string; locale?: Locale | null } = {};
    if (input.display_name !== undefined && input.display_name !== user.display_name) changes.display_name = input.display_name;
    if (input.locale !== undefined && input.locale !== user.locale) changes.locale = input.locale;
    if (emailChanges) {
      const [taken] = await s.tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = lower(${input.email!})`, ne(users.id, user.id)));
      if (taken) throw ApiError.conflict("An account with this email address already exists.");
      changes.email = input.email!;
    }
    let fresh = user;
    if (Object.keys(changes).length > 0) {
      [fresh] = (await s.tx
        .update(users)
        .set({ ...changes, updated_at: s.now })
        .where(eq(users.id, user.id))
        .returning()) as [typeof user];
      const before = Object.fromEntries(Object.keys(changes).map((k) => [k, user[k as keyof typeof changes]]));
      s.audit({
        action: "user.updated",
        category: emailChanges ? "security" : "users",
        entity_type: "user",
        entity_id: user.id,
        diff: { before, after: changes },
      });
    }
    return publicUser(fresh, await roleScopes(s.tx, fresh.role));
  },
);
