// Password sign-in (docs/architecture.md, API contracts): lockout after repeated failures of one e-mail, known or not
// (login-failures.ts), an MFA token or a
// password-change token instead of a session where the account needs one, and an audit entry for
// every outcome. Failure bookkeeping commits even though the request fails (s.refuse).
import { eq, sql } from "drizzle-orm";
import { hashPassword, verifyPassword } from "../../auth/password.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { AUDIENCE, signToken } from "../../identity/tokens.ts";
import type { UserRow } from "../admin-users/user-rows.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { type IssuedSession, issueSession } from "./issue-session.ts";
import { countFailure, forgetFailures, lockedFor } from "./login-failures.ts";
import { type PublicUser, publicUser } from "./public-user.ts";
import type { SignInClient } from "./sign-in-client.ts";

/** A signed-in user's new session: what every way in but the password check answers. */
export type SessionOutcome = { kind: "session"; session: IssuedSession; user: PublicUser };
export type LoginOutcome = SessionOutcome | { kind: "mfa"; mfa_token: string } | { kind: "change"; change_token: string };

export type LoginInput = { email: string; password: string } & SignInClient;

/** What the password check (outside the transaction) found. */
type Checked =
  | { kind: "unknown"; userId: number | null }
  | { kind: "locked"; userId: number | null; retryAfter: number }
  | { kind: "wrong"; userId: number }
  | { kind: "right"; user: UserRow; rehash: string | null };

const SHORT_TOKEN_SECONDS = 300;
// A real hash to verify against when the e-mail is unknown, so both failures take the same time.
let decoy: Promise<string> | undefined;

export async function findUserByEmail(ctx: Pick<VerbContext, "db">, email: string) {
  const [user] = await ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return user;
}

export const login = defineVerb<LoginInput, LoginOutcome, Checked>(
  {
    scope: "public",
    // The password check is the slow part: it runs before the transaction, which records its outcome.
    prepare: async (ctx, input) => {
      const user = await findUserByEmail(ctx, input.email);
      // Checked first for every e-mail alike: a locked address costs no password hash, known or not.
      const retryAfter = await lockedFor(ctx.db, input.email, ctx.clock.now());
      if (retryAfter !== null) return { kind: "locked", userId: user?.id ?? null, retryAfter };
      if (!user?.password_hash || !user.is_active) {
        await verifyPassword(input.password, await (decoy ??= hashPassword("decoy-password-never-used")));
        return { kind: "unknown", userId: user?.id ?? null };
      }
      const check = await verifyPassword(input.password, user.password_hash);
      if (!check.ok) return { kind: "wrong", userId: user.id };
      return { kind: "right", user, rehash: check.needsRehash ? await hashPassword(input.password) : null };
    },
  },
  async (s, input, checked) => {
    if (checked.kind === "locked") {
      s.audit({ action: "login.locked", category: "security", level: "warning", entity_type: "user", entity_id: checked.userId });
      return s.refuse(
        new ApiError(
          "ACCOUNT_LOCKED",
          "The account is locked after repeated failed sign-ins; try later or ask an administrator to unlock it.",
          { retry_after: checked.retryAfter },
        ),
      );
    }
    if (checked.kind === "unknown" || checked.kind === "wrong") return s.refuse(await countFailure(s, input.email, checked.userId));
    const { user, rehash } = checked;
    await s.tx
      .update(users)
      .set({ failed_logins: 0, locked_until: null, ...(rehash ? { password_hash: rehash } : {}) })
      .where(eq(users.id, user.id));
    await forgetFailures(s.tx, user.id);
    if (user.must_change_password) {
      s.audit({ action: "login.password_change_required", category: "security", entity_type: "user", entity_id: user.id });
      return {
        kind: "change",
        change_token: await signToken(input.signingKey, AUDIENCE.passwordChange, { userId: user.id }, s.now, SHORT_TOKEN_SECONDS),
      };
    }
    if (user.mfa_enabled) {
      s.audit({ action: "login.mfa_required", category: "security", entity_type: "user", entity_id: user.id });
      return { kind: "mfa", mfa_token: await signToken(input.signingKey, AUDIENCE.mfa, { userId: user.id }, s.now, SHORT_TOKEN_SECONDS) };
    }
    return completeLogin(s, input, user);
  },
);

/** The last step of every successful sign-in: the session, last_login_at and the audit entry. */
export async function completeLogin(s: VerbScope, client: SignInClient, user: UserRow, action = "login"): Promise<SessionOutcome> {
  const session = await issueSession(s, client.signingKey, user.id, { userAgent: client.userAgent });
  const [fresh] = await s.tx.update(users).set({ last_login_at: s.now }).where(eq(users.id, user.id)).returning();
  s.audit({ action, category: "security", entity_type: "user", entity_id: user.id });
  return { kind: "session", session, user: publicUser(fresh!, await roleScopes(s.tx, user.role)) };
}
