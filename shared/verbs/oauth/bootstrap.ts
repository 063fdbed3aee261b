// First run through a provider (issue 16, spec/catalogue.tsv, group oauth): before any administrator exists a
// provider sign-in may create its account (registration settings do not apply yet), and
// POST /bootstrap/initialize-oauth, with the setup token, makes that account the first administrator.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { ROLE_SCOPES } from "../../auth/scopes.ts";
import { oauthIdentities, sessions, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { forgetSetupToken, setupTokenMatches } from "../../identity/setup-token.ts";
import { AUDIENCE, verifyToken } from "../../identity/tokens.ts";
import { type IssuedSession, issueSession } from "../auth/issue-session.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import type { SignInClient } from "../auth/sign-in-client.ts";
import { BOOTSTRAP_LOCK } from "../bootstrap/initialize.ts";
import { bootstrapStatus } from "../bootstrap/status.ts";
import { closeProviderRegistration } from "../settings/oauth.ts";
import { defineVerb, recordRefusal } from "../verb.ts";

export type InitializeOAuthInput = {
  /** The session token GET /auth/exchange answered for the provider sign-in. */
  oauth_token: string;
  setup_token: string;
  display_name?: string | undefined;
  configuredSetupToken: string | undefined;
} & SignInClient;

const alreadyDone = () => ApiError.conflict("Bootstrap already completed. Please refresh and log in.");
const badToken = () => new ApiError("BAD_REQUEST", "OAuth token is invalid or expired");

export const initializeWithOAuth = defineVerb<
  InitializeOAuthInput,
  { session: IssuedSession; user: PublicUser },
  { userId: number; sid: string }
>(
  {
    scope: "public",
    prepare: async (ctx, input) => {
      if ((await bootstrapStatus({ ctx })).bootstrapped) throw alreadyDone();
      if (!(await setupTokenMatches(ctx.db, input.configuredSetupToken, input.setup_token))) {
        await recordRefusal({
          ctx,
          input: [
            { action: "bootstrap.denied", category: "security", level: "warning", diff: { reason: "wrong setup token", via: "oauth" } },
          ],
        });
        throw ApiError.forbidden("The setup token is wrong.");
      }
      const claims = await verifyToken(input.signingKey, AUDIENCE.session, input.oauth_token, ctx.clock.now());
      if (!claims?.sid) throw badToken();
      return { userId: claims.userId, sid: claims.sid };
    },
  },
  async (s, input, { userId, sid }) => {
    await s.tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
    if ((await bootstrapStatus({ ctx: { db: s.tx } })).bootstrapped) throw alreadyDone();
    // The token's session must be live and its user a provider account.
    const [live] = await s.tx
      .select({ id: sessions.id })
      .from(sessions)
      .innerJoin(oauthIdentities, eq(oauthIdentities.user_id, sessions.user_id))
      .where(and(eq(sessions.id, sid), eq(sessions.user_id, userId), isNull(sessions.revoked_at), gt(sessions.expires_at, s.now)));
    if (!live) throw badToken();
    const [user] = await s.tx
      .update(users)
      .set({
        role: "admin",
        is_active: true,
        last_login_at: s.now,
        updated_at: s.now,
        ...(input.display_name ? { display_name: input.display_name } : {}),
      })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw badToken();
    await forgetSetupToken(s.tx);
    await closeProviderRegistration(s);
    // The pre-bootstrap session ends; the administrator gets a fresh one.
    await s.tx.update(sessions).set({ revoked_at: s.now }).where(eq(sessions.id, sid));
    const session = await issueSession(s, input.signingKey, user.id, { userAgent: input.userAgent });
    s.audit({
      action: "bootstrap.initialize",
      category: "security",
      entity_type: "user",
      entity_id: user.id,
      diff: { after: { email: user.email, role: "admin", via: "oauth" } },
    });
    return { session, user: publicUser(user, [...ROLE_SCOPES.admin]) };
  },
);
