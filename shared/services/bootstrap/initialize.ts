// POST /bootstrap/initialize: creates the first administrator, once. Serialised by an advisory lock so
// two racing requests cannot both create one.
import { sql } from "drizzle-orm";
import { hashPassword, validatePasswordPolicy } from "../../auth/password.ts";
import { ROLE_SCOPES } from "../../auth/scopes.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { forgetSetupToken, setupTokenMatches } from "../../identity/setup-token.ts";
import { issueSession } from "../auth/issue-session.ts";
import { passwordProblems } from "../auth/password-problems.ts";
import { publicUser } from "../auth/public-user.ts";
import type { VerbContext } from "../verb-context.ts";
import { auditOnly, runInTransaction } from "../verb.ts";
import { bootstrapStatus } from "./status.ts";

const BOOTSTRAP_LOCK = 7_246_003;

export interface InitializeInput {
  email: string;
  password: string;
  display_name?: string | undefined;
  setup_token: string;
}

export async function initializeFirstAdmin({
  ctx,
  input,
  signingKey,
  configuredSetupToken,
  userAgent,
}: {
  ctx: VerbContext;
  input: InitializeInput;
  signingKey: Uint8Array;
  configuredSetupToken: string | undefined;
  userAgent?: string | null;
}) {
  const alreadyDone = () => ApiError.conflict("First-run set-up is already complete; an administrator exists.");
  if ((await bootstrapStatus({ ctx })).bootstrapped) throw alreadyDone();
  if (!(await setupTokenMatches(ctx.db, configuredSetupToken, input.setup_token))) {
    await auditOnly(ctx, [{ action: "bootstrap.denied", category: "security", level: "warning", diff: { email: input.email, reason: "wrong setup token" } }]);
    throw ApiError.forbidden("The setup token is wrong.");
  }
  passwordProblems(validatePasswordPolicy(input.password, input.email));
  // Hash outside the transaction: it is the slow part and needs no lock.
  const password_hash = await hashPassword(input.password);
  return runInTransaction(ctx, {}, async (scope) => {
    await scope.tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
    if ((await bootstrapStatus({ ctx: { db: scope.tx } })).bootstrapped) throw alreadyDone();
    const [user] = await scope.tx
      .insert(users)
      .values({ email: input.email, password_hash, display_name: input.display_name ?? null, role: "admin", last_login_at: scope.now })
      .returning();
    const created = user!;
    await forgetSetupToken(scope.tx);
    const session = await issueSession(scope, signingKey, created.id, { userAgent });
    scope.audit({ action: "bootstrap.initialize", category: "security", entity_type: "user", entity_id: created.id, diff: { after: { email: created.email, role: "admin" } } });
    return { session, user: publicUser(created, [...ROLE_SCOPES.admin]) };
  });
}
