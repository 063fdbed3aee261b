// The sign-in flow's writes (docs/architecture.md, API contracts, spec/catalogue.tsv, group oauth): the authorization request kept
// server-side (state hashed, nonce, PKCE verifier; 10 minutes, single use), the callback's account
// rules, and the 60-second one-time code GET /auth/exchange turns into a session token.
import { and, eq, lt, sql } from "drizzle-orm";
import { timingSafeEqualString } from "../../auth/constant-time.ts";
import { bytesToBase64Url } from "../../auth/encoding.ts";
import { pkceChallenge, sha256Hex } from "../../auth/sha256.ts";
import { authExchangeCodes, invites, oauthIdentities, oauthStates, sessions, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { AUDIENCE, signToken } from "../../identity/tokens.ts";
import { readSetting } from "../../settings/read.ts";
import type { IssuedSession } from "../auth/issue-session.ts";
import { completeLogin, findUserByEmail } from "../auth/login.ts";
import type { SignInClient } from "../auth/sign-in-client.ts";
import { openInvite } from "../invites/accept-invite.ts";
import { inviteStatus, lockInvite } from "../invites/invite-rows.ts";
import { defineVerb, recordRefusal, type VerbScope } from "../verb.ts";
import type { ProviderIdentity } from "./identity.ts";
import { requireSelfWrite } from "../account/self.ts";
import { bootstrapStatus } from "../bootstrap/status.ts";
import { authorizationUrl, identityFromCallback, loadProvider, type Provider, type ProviderRoute, routeOf } from "./provider.ts";
import { outboundOf, vaultOf } from "../verb-context.ts";

/** How long a started sign-in may take (the state row, and the browser's state cookie). */
export const STATE_TTL_MS = 10 * 60_000;
const CODE_TTL_MS = 60_000;
const MFA_TOKEN_SECONDS = 300;

const randomText = (s: Pick<VerbScope["ctx"], "random">) => bytesToBase64Url(s.random.bytes(32));

/** Where the provider sends the browser back: under the configured public URL, never the Host header. */
export async function callbackUrl(
  db: VerbScope["tx"],
  configuredBase: string | undefined,
  name: string,
  via: ProviderRoute,
): Promise<string> {
  return `${await publicBase(db, configuredBase)}/api/v1/auth/oauth/${via === "oidc" ? `oidc/${name}` : name}/callback`;
}

/** The UI's origin: the public_url setting, else PUBLIC_URL; 400 when neither is set. */
export async function publicBase(db: VerbScope["tx"], configuredBase: string | undefined): Promise<string> {
  const base = (await readSetting(db, "public_url")) || configuredBase || "";
  if (!base) throw new ApiError("BAD_REQUEST", "OAuth sign-in needs the public_url setting (or PUBLIC_URL) to build its redirect URI.");
  return base.replace(/\/+$/, "");
}

/** What the flow takes from the configuration; the outbound client and the vault come with the verb context. */
export interface OAuthDeps {
  /** PUBLIC_URL from the configuration, used when the public_url setting is empty. */
  publicUrl: string | undefined;
}

export interface BeginInput extends OAuthDeps {
  name: string;
  via: ProviderRoute;
  inviteToken?: string | undefined;
}

interface Begun {
  url: string;
  /** For the browser's state cookie (functions/oauth-state-cookie.ts); stored only hashed. */
  state: string;
  row: typeof oauthStates.$inferInsert;
}

/** The provider's authorization URL and the request row to store (outside the transaction: HTTP). */
async function prepareBegin(
  ctx: VerbScope["ctx"],
  input: OAuthDeps & { name: string; via?: ProviderRoute; inviteToken?: string | undefined },
  linkUserId: number | null,
): Promise<Begun> {
  const provider = await loadProvider(ctx.db, { outbound: outboundOf(ctx), vault: vaultOf(ctx) }, input.name, input.via);
  const redirectUri = await callbackUrl(ctx.db, input.publicUrl, input.name, routeOf(provider.config));
  const [state, nonce, codeVerifier] = [randomText(ctx), randomText(ctx), randomText(ctx)];
  const challenge = await pkceChallenge(codeVerifier);
  const url = await authorizationUrl(provider, { state, nonce, codeChallenge: challenge, redirectUri });
  const now = ctx.clock.now();
  return {
    url,
    state,
    row: {
      state_hash: await sha256Hex(state),
      provider: input.name,
      purpose: linkUserId === null ? "login" : "link",
      nonce,
      code_verifier: codeVerifier,
      redirect_uri: redirectUri,
      invite_token: input.inviteToken ?? null,
      link_user_id: linkUserId,
      created_at: now,
      expires_at: new Date(now.getTime() + STATE_TTL_MS),
    },
  };
}

async function storeBegin(s: VerbScope, begun: Begun): Promise<{ url: string; state: string }> {
  // Expired requests and codes go as new ones come in, so neither table grows without bound.
  await s.tx.delete(oauthStates).where(lt(oauthStates.expires_at, s.now));
  await s.tx.delete(authExchangeCodes).where(lt(authExchangeCodes.expires_at, s.now));
  await s.tx.insert(oauthStates).values(begun.row);
  return { url: begun.url, state: begun.state };
}

/** GET /auth/oauth/...: stores the request and answers the provider's authorization URL and the state. */
export const beginOAuth = defineVerb<BeginInput, { url: string; state: string }, Begun>(
  { scope: "public", prepare: (ctx, input) => prepareBegin(ctx, input, null) },
  async (s, _input, begun) => storeBegin(s, begun),
);

/** POST /account/oauth/{provider}/link: the same request, bound to the signed-in user (purpose link). */
export const beginOAuthLink = defineVerb<OAuthDeps & { name: string }, { authorization_url: string; state: string }, Begun>(
  { scope: requireSelfWrite, prepare: (ctx, input) => prepareBegin(ctx, input, requireSelfWrite(ctx).userId) },
  async (s, _input, begun) => {
    const { url, state } = await storeBegin(s, begun);
    return { authorization_url: url, state };
  },
);

type StateRow = typeof oauthStates.$inferSelect;

/** Takes the request back out (deleted whatever happens next: single use). */
const consumeState = defineVerb<{ name: string; state: string }, StateRow>({ scope: "public" }, async (s, input) => {
  const [row] = await s.tx
    .delete(oauthStates)
    .where(and(eq(oauthStates.state_hash, await sha256Hex(input.state)), eq(oauthStates.provider, input.name)))
    .returning();
  if (!row) throw new ApiError("BAD_REQUEST", "Invalid OAuth state");
  if (row.expires_at <= s.now) return s.refuse(new ApiError("BAD_REQUEST", "OAuth state expired. Please try signing in again."));
  return row;
});

export type OAuthOutcome =
  | { kind: "session"; code: string; session: IssuedSession; userId: number; firstRun: boolean }
  | { kind: "mfa"; mfa_token: string }
  | { kind: "linked"; provider: string };

export interface CallbackInput extends OAuthDeps, SignInClient {
  name: string;
  via: ProviderRoute;
  code: string;
  state: string;
  /** The state cookie the browser sent with the callback (undefined: none). */
  stateCookie: string | undefined;
}

/**
 * A sign-in the account rules refuse. Every such refusal answers the same 403 (an existing e-mail is not
 * told apart from closed registration: no account enumeration, issue 36 item 5); the audit keeps the
 * reason, and `owner` names the account whose e-mail the identity carried, to be told by e-mail.
 */
export class SignInRefused extends ApiError {
  readonly reason: string;
  readonly owner: string | null;
  readonly providerLabel: string;

  constructor(p: Provider, reason: string, owner: string | null = null) {
    super(
      "PERMISSION_DENIED",
      `Signing in through ${p.label} was refused. If you already have an account here, sign in another way and link ${p.label} from your account settings; otherwise ask an administrator for an invite.`,
    );
    this.reason = reason;
    this.owner = owner;
    this.providerLabel = p.label;
  }
}

/** Creates the account for an unknown identity, bound to it, and audits it. */
async function createAccount(s: VerbScope, p: Provider, id: ProviderIdentity, role: string) {
  const [user] = await s.tx
    .insert(users)
    .values({ email: id.email, password_hash: null, display_name: id.name, role, created_at: s.now, updated_at: s.now })
    .onConflictDoNothing()
    .returning();
  if (!user) throw new SignInRefused(p, "e-mail already registered", id.email);
  await s.tx.insert(oauthIdentities).values({
    user_id: user.id,
    provider: p.name,
    issuer: id.issuer,
    subject: id.subject,
    email: id.email,
    created_at: s.now,
    last_login_at: s.now,
  });
  s.audit({
    action: "user.registered",
    category: "security",
    entity_type: "user",
    entity_id: user.id,
    diff: { after: { email: user.email, role, provider: p.name } },
  });
  return user;
}

/** An invite presented with the sign-in: its role, for the e-mail it names only; used up. */
async function acceptInviteFor(s: VerbScope, p: Provider, id: ProviderIdentity, inviteId: number) {
  const invite = await lockInvite(s.tx, inviteId);
  if (inviteStatus(invite, s.now) !== "pending") throw ApiError.unauthorized("The invite is invalid or has expired.");
  if (invite.email.toLowerCase() !== id.email)
    throw ApiError.forbidden(`The invite is for another e-mail address than the one ${p.label} verified.`);
  const user = await createAccount(s, p, id, invite.role);
  await s.tx.update(invites).set({ accepted_at: s.now }).where(eq(invites.id, invite.id));
  s.audit({
    action: "invite.accepted",
    category: "security",
    entity_type: "invite",
    entity_id: invite.id,
    diff: { user_id: user.id, email: invite.email, role: invite.role, provider: p.name },
  });
  return user;
}

/** The user the identity signs in as, by the account rules (no silent take-over of an existing e-mail). */
async function accountFor(s: VerbScope, p: Provider, id: ProviderIdentity, inviteId: number | null) {
  const [bound] = await s.tx
    .select({ user: users })
    .from(oauthIdentities)
    .innerJoin(users, eq(users.id, oauthIdentities.user_id))
    .where(and(eq(oauthIdentities.issuer, id.issuer), eq(oauthIdentities.subject, id.subject)));
  if (bound) {
    await s.tx
      .update(oauthIdentities)
      .set({ email: id.email, last_login_at: s.now })
      .where(and(eq(oauthIdentities.issuer, id.issuer), eq(oauthIdentities.subject, id.subject)));
    return bound.user;
  }
  const owner = await findUserByEmail({ db: s.tx }, id.email);
  if (owner) throw new SignInRefused(p, "e-mail already registered", owner.is_active ? owner.email : null);
  if (inviteId !== null) return acceptInviteFor(s, p, id, inviteId);
  // Before first run a provider account may be created, only so it can become the administrator
  // through POST /bootstrap/initialize-oauth (which still needs the setup token): as a viewer, whatever
  // the provider's registration settings say (no administrator has chosen them).
  const firstRun = !(await bootstrapStatus({ ctx: { db: s.tx } })).bootstrapped;
  if (firstRun) return createAccount(s, p, id, "viewer");
  if (!p.config.allow_registration) throw new SignInRefused(p, "registration closed");
  return createAccount(s, p, id, p.config.default_role);
}

/** The open invite a start request carried; a refused one is audited and answered 401 as on /auth/accept-invite. */
async function inviteOf(ctx: VerbScope["ctx"], token: string): Promise<number> {
  const opened = await openInvite(ctx, token);
  if ("invite" in opened) return opened.invite.id;
  await recordRefusal({
    ctx,
    input: [
      {
        action: "invite.accept_failed",
        category: "security",
        level: "warning",
        entity_type: "invite",
        entity_id: opened.inviteId,
        diff: { reason: opened.reason, via: "oauth" },
      },
    ],
  });
  throw ApiError.unauthorized("The invite is invalid or has expired.");
}

interface Resolved {
  provider: Provider;
  identity: ProviderIdentity;
  row: StateRow;
  inviteId: number | null;
}

/** A link request's end: the identity is bound to the user who asked, unless another user holds it. */
async function linkIdentity(s: VerbScope, p: Provider, id: ProviderIdentity, userId: number): Promise<OAuthOutcome> {
  const [bound] = await s.tx
    .select()
    .from(oauthIdentities)
    .where(and(eq(oauthIdentities.issuer, id.issuer), eq(oauthIdentities.subject, id.subject)));
  if (bound && bound.user_id !== userId) throw ApiError.conflict("This provider account is already linked to another user.");
  if (!bound) {
    const [row] = await s.tx
      .insert(oauthIdentities)
      .values({ user_id: userId, provider: p.name, issuer: id.issuer, subject: id.subject, email: id.email, created_at: s.now })
      .returning();
    s.audit({
      action: "user.oauth_linked",
      category: "security",
      entity_type: "user",
      entity_id: userId,
      diff: { after: { identity_id: row!.id, provider: p.name, issuer: id.issuer, email: id.email } },
    });
  }
  return { kind: "linked", provider: p.name };
}

/** GET .../callback: the state, the provider's word on who signed in, then the account rules. */
export const completeOAuth = defineVerb<CallbackInput, OAuthOutcome, Resolved>(
  {
    scope: "public",
    prepare: async (ctx, input) => {
      const provider = await loadProvider(ctx.db, { outbound: outboundOf(ctx), vault: vaultOf(ctx) }, input.name, input.via);
      // Before the state is used up: a callback from another browser (login CSRF, or a link request
      // finished by a victim) leaves the starter's request as it was.
      if (!input.stateCookie || !timingSafeEqualString(input.stateCookie, input.state)) {
        await recordRefusal({
          ctx,
          input: [
            {
              action: "login.oauth_refused",
              category: "security",
              level: "warning",
              entity_type: "user",
              entity_id: null,
              diff: { provider: provider.name, reason: "state cookie missing or different" },
            },
          ],
        });
        throw new ApiError(
          "BAD_REQUEST",
          "This sign-in was not started in this browser (its state cookie is missing or different). Please try signing in again.",
        );
      }
      const row = await consumeState({ ctx, input: { name: input.name, state: input.state } });
      const inviteId = row.invite_token ? await inviteOf(ctx, row.invite_token) : null;
      const identity = await identityFromCallback(provider, {
        code: input.code,
        codeVerifier: row.code_verifier ?? "",
        nonce: row.nonce ?? "",
        redirectUri: row.redirect_uri,
        now: ctx.clock.now(),
      });
      return { provider, identity, row, inviteId };
    },
  },
  async (s, input, { provider, identity, row, inviteId }) => {
    let user;
    try {
      if (row.purpose === "link" && row.link_user_id !== null) return await linkIdentity(s, provider, identity, row.link_user_id);
      user = await accountFor(s, provider, identity, inviteId);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const reason = e instanceof SignInRefused ? e.reason : String(e.detail);
      s.audit({
        action: "login.oauth_refused",
        category: "security",
        level: "warning",
        entity_type: "user",
        entity_id: null,
        diff: { provider: provider.name, email: identity.email, reason },
      });
      return s.refuse(e);
    }
    if (!user.is_active) {
      s.audit({
        action: "login.failed",
        category: "security",
        level: "warning",
        entity_type: "user",
        entity_id: user.id,
        diff: { provider: provider.name, reason: "deactivated" },
      });
      return s.refuse(ApiError.forbidden("This account is deactivated."));
    }
    if (user.mfa_enabled) {
      s.audit({
        action: "login.mfa_required",
        category: "security",
        entity_type: "user",
        entity_id: user.id,
        diff: { provider: provider.name },
      });
      return { kind: "mfa", mfa_token: await signToken(input.signingKey, AUDIENCE.mfa, { userId: user.id }, s.now, MFA_TOKEN_SECONDS) };
    }
    const outcome = await completeLogin(s, input, user, "login.oauth");
    if (outcome.kind !== "session") throw new Error("completeLogin answers a session");
    const code = randomText(s.ctx);
    await s.tx.insert(authExchangeCodes).values({
      code_hash: await sha256Hex(code),
      session_id: outcome.session.sessionId,
      expires_at: new Date(s.now.getTime() + CODE_TTL_MS),
    });
    const firstRun = !(await bootstrapStatus({ ctx: { db: s.tx } })).bootstrapped;
    return { kind: "session", code, session: outcome.session, userId: user.id, firstRun };
  },
);

/** GET /auth/exchange: the one-time code (consumed atomically) for a token of the session it names. */
export const exchangeAuthCode = defineVerb<{ code: string; signingKey: Uint8Array }, { token: string }>(
  { scope: "public" },
  async (s, input) => {
    const invalid = () => new ApiError("BAD_REQUEST", "Invalid or expired auth code");
    const [row] = await s.tx
      .delete(authExchangeCodes)
      .where(eq(authExchangeCodes.code_hash, await sha256Hex(input.code)))
      .returning();
    if (!row) throw invalid();
    if (row.expires_at <= s.now) return s.refuse(invalid());
    const [session] = await s.tx
      .select({ userId: sessions.user_id, expiresAt: sessions.expires_at })
      .from(sessions)
      .where(and(eq(sessions.id, row.session_id), sql`${sessions.revoked_at} is null`));
    if (!session || session.expiresAt <= s.now) return s.refuse(invalid());
    const ttl = Math.max(1, Math.floor((session.expiresAt.getTime() - s.now.getTime()) / 1000));
    return { token: await signToken(input.signingKey, AUDIENCE.session, { userId: session.userId, sid: row.session_id }, s.now, ttl) };
  },
);
