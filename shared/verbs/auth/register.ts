// POST /auth/register: self-registration, only while the allow_registration setting is on. The role is
// registration_default_role, never one with administrative scopes.
import { hashPassword, validatePasswordPolicy } from "../../auth/password.ts";
import type { Db } from "../../db/database.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { readSetting } from "../../settings/read.ts";
import { defineVerb } from "../verb.ts";
import { completeLogin, findUserByEmail, type SessionOutcome } from "./login.ts";
import { passwordProblems } from "./password-problems.ts";
import type { SignInClient } from "./sign-in-client.ts";

const FALLBACK_ROLE = "viewer";
const TAKEN = () => ApiError.conflict("An account with this email address already exists.");

export type RegisterInput = { email: string; password: string; display_name?: string | null | undefined } & SignInClient;

/** The configured role, unless it is unknown or could administer anything (then viewer). */
async function registrationRole(db: Db): Promise<string> {
  const role = await readSetting(db, "registration_default_role");
  const scopes = await roleScopes(db, role);
  const administrative = scopes.some((s) => s.startsWith("admin:") || s.startsWith("*:"));
  return scopes.length > 0 && !administrative ? role : FALLBACK_ROLE;
}

export const register = defineVerb<RegisterInput, SessionOutcome, string>(
  {
    scope: "public",
    // Cheap refusals, then the slow hash, all before the transaction.
    prepare: async (ctx, input) => {
      if (!(await readSetting(ctx.db, "allow_registration"))) throw ApiError.forbidden("Registration is disabled");
      passwordProblems(validatePasswordPolicy(input.password, input.email));
      if (await findUserByEmail(ctx, input.email)) throw TAKEN();
      return hashPassword(input.password);
    },
  },
  async (s, input, password_hash) => {
    const role = await registrationRole(s.tx);
    // The unique index on lower(email) settles a race with another registration of the same address.
    const [user] = await s.tx
      .insert(users)
      .values({ email: input.email, password_hash, display_name: input.display_name ?? null, role, created_at: s.now, updated_at: s.now })
      .onConflictDoNothing()
      .returning();
    if (!user) throw TAKEN();
    s.audit({
      action: "user.registered",
      category: "security",
      entity_type: "user",
      entity_id: user.id,
      diff: { after: { email: user.email, role, display_name: user.display_name } },
    });
    return completeLogin(s, input, user);
  },
);
