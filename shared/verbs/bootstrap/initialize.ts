// POST /bootstrap/initialize: creates the first administrator, once. Serialised by an advisory lock so
// two racing requests cannot both create one.
import { sql } from "drizzle-orm";
import { hashPassword, validatePasswordPolicy } from "../../auth/password.ts";
import { ROLE_SCOPES } from "../../auth/scopes.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { forgetSetupToken, setupTokenMatches } from "../../identity/setup-token.ts";
import { type IssuedSession, issueSession } from "../auth/issue-session.ts";
import { passwordProblems } from "../auth/password-problems.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import type { SignInClient } from "../auth/sign-in-client.ts";
import { closeProviderRegistration } from "../settings/oauth.ts";
import { defineVerb, recordRefusal } from "../verb.ts";
import { bootstrapStatus } from "./status.ts";

export const BOOTSTRAP_LOCK = 7_246_003;

export type InitializeInput = {
  email: string;
  password: string;
  display_name?: string | undefined;
  setup_token: string;
  /** The deployment's SVC_SETUP_TOKEN, when configured (else the generated one stored at first start). */
  configuredSetupToken: string | undefined;
} & SignInClient;

const alreadyDone = () => ApiError.conflict("First-run set-up is already complete; an administrator exists.");

export const initializeFirstAdmin = defineVerb<InitializeInput, { session: IssuedSession; user: PublicUser }, string>(
  {
    scope: "public",
    // The refusals, then the slow hash (it needs no lock), before the transaction.
    prepare: async (ctx, input) => {
      if ((await bootstrapStatus({ ctx })).bootstrapped) throw alreadyDone();
      if (!(await setupTokenMatches(ctx.db, input.configuredSetupToken, input.setup_token))) {
        await recordRefusal({
          ctx,
          input: [
            {
              action: "bootstrap.denied",
              category: "security",
              level: "warning",
              diff: { email: input.email, reason: "wrong setup token" },
            },
          ],
        });
        throw ApiError.forbidden("The setup token is wrong.");
      }
      passwordProblems(validatePasswordPolicy(input.password, input.email));
      return hashPassword(input.password);
    },
  },
  async (s, input, password_hash) => {
    await s.tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
    if ((await bootstrapStatus({ ctx: { db: s.tx } })).bootstrapped) throw alreadyDone();
    const [user] = await s.tx
      .insert(users)
      .values({ email: input.email, password_hash, display_name: input.display_name ?? null, role: "admin", last_login_at: s.now })
      .returning();
    const created = user!;
    await forgetSetupToken(s.tx);
    await closeProviderRegistration(s);
    const session = await issueSession(s, input.signingKey, created.id, { userAgent: input.userAgent });
    s.audit({
      action: "bootstrap.initialize",
      category: "security",
      entity_type: "user",
      entity_id: created.id,
      diff: { after: { email: created.email, role: "admin" } },
    });
    return { session, user: publicUser(created, [...ROLE_SCOPES.admin]) };
  },
);
