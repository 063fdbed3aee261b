// POST /admin/users and /admin/users/local: an administrator creates a local account. Without a password
// the account gets a random one nobody knows, so its owner gets in through an invite or an admin reset.
import { hashPassword, validatePasswordPolicy } from "../../auth/password.ts";
import { users } from "../../db/schema/index.ts";
import { passwordProblems } from "../auth/password-problems.ts";
import { defineVerb } from "../verb.ts";
import { randomPassword } from "./random-password.ts";
import { assertRoleExists } from "./roles.ts";
import { type AdminUser, adminUserOf, assertEmailFree, rethrowEmailTaken } from "./user-rows.ts";

export interface CreateUserInput {
  email: string;
  password?: string | undefined;
  display_name?: string | null | undefined;
  role: string;
  /** Defaults to true: a password an administrator chose is known to two people. */
  must_change_password?: boolean | undefined;
}

export const createUser = defineVerb<CreateUserInput, AdminUser, string>(
  {
    scope: "admin:*",
    // Cheap refusals before the slow hash, and the hash before the transaction; the unique index settles a race.
    prepare: async (ctx, input) => {
      if (input.password !== undefined) passwordProblems(validatePasswordPolicy(input.password, input.email));
      await assertRoleExists(ctx.db, input.role);
      await assertEmailFree(ctx.db, input.email);
      return hashPassword(input.password ?? randomPassword(ctx.random));
    },
  },
  async (s, input, password_hash) => {
    const values = {
      email: input.email,
      display_name: input.display_name ?? null,
      role: input.role,
      password_hash,
      must_change_password: input.must_change_password ?? true,
      created_at: s.now,
      updated_at: s.now,
    };
    const [row] = await s.tx.insert(users).values(values).returning().catch(rethrowEmailTaken(input.email));
    s.audit({
      action: "user.created",
      category: "security",
      entity_type: "user",
      entity_id: row!.id,
      diff: {
        after: {
          email: values.email,
          display_name: values.display_name,
          role: values.role,
          must_change_password: values.must_change_password,
        },
        password: input.password === undefined ? "random" : "set by administrator",
      },
    });
    return adminUserOf(s.tx, row!);
  },
);
