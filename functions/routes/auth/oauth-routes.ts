// Sign-in through OAuth 2.0 / OpenID Connect (issue 16, docs/oauth.md): the public provider list, the
// start routes (302 to the provider), the callbacks (302 to the UI with a one-time code, or with the
// MFA challenge; JSON errors 400/403/502), and GET /auth/exchange (the code for a session token).
import type { Context, Hono } from "hono";
import type * as v from "valibot";
import { CallbackQuery, ExchangedToken, ExchangeQuery, PublicProviders, SlugParam, StartQuery } from "../../../shared/schemas/oauth.ts";
import { beginOAuth, completeOAuth, exchangeAuthCode, publicBase, SignInRefused } from "../../../shared/verbs/oauth/flow.ts";
import { sendOwnerNotice } from "../../../shared/verbs/oauth/owner-notice.ts";
import { listPublicProviders } from "../../../shared/verbs/oauth/public-providers.ts";
import type { ProviderRoute } from "../../../shared/verbs/oauth/provider.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { clearOAuthStateCookie, readOAuthStateCookie, setOAuthStateCookie } from "../../oauth-state-cookie.ts";
import { setSessionCookies } from "../../session-cookies.ts";
import { signInArgs } from "./sign-in-args.ts";

const REDIRECT = { status: 302, description: "Found: Location is the next step (no body)." };

export function oauthDeps(c: Context<AppEnv>) {
  const deps = c.get("deps");
  return { publicUrl: deps.config.PUBLIC_URL };
}

function redirect(c: Context<AppEnv>, location: string): Response {
  c.header("Cache-Control", "no-store");
  return c.redirect(location, 302);
}

async function start(c: Context<AppEnv>, name: string, via: ProviderRoute, inviteToken: string | undefined): Promise<Response> {
  const { url, state } = await beginOAuth({ ctx: verbContext(c), input: { ...oauthDeps(c), name, via, inviteToken } });
  setOAuthStateCookie(c, state);
  return redirect(c, url);
}

async function callback(c: Context<AppEnv>, name: string, via: ProviderRoute, q: v.InferOutput<typeof CallbackQuery>): Promise<Response> {
  const args = await signInArgs(c, { ...oauthDeps(c), name, via, code: q.code, state: q.state, stateCookie: readOAuthStateCookie(c) });
  let outcome;
  try {
    outcome = await completeOAuth(args);
  } catch (e) {
    if (e instanceof SignInRefused && e.owner) tellOwner(c, e.owner, e.providerLabel);
    throw e;
  }
  clearOAuthStateCookie(c);
  const base = await publicBase(args.ctx.db, oauthDeps(c).publicUrl);
  if (outcome.kind === "mfa") return redirect(c, `${base}/?cb_mfa_token=${encodeURIComponent(outcome.mfa_token)}`);
  if (outcome.kind === "linked") return redirect(c, `${base}/?oauth_linked=${encodeURIComponent(outcome.provider)}`);
  setSessionCookies(c, outcome.session);
  const code = encodeURIComponent(outcome.code);
  if (outcome.firstRun) return redirect(c, `${base}/oobe?cb_auth_code=${code}&bootstrap=1&provider=${encodeURIComponent(name)}`);
  return redirect(c, `${base}/?cb_auth_code=${code}`);
}

/**
 * Mails the owner of the account a refused identity's e-mail belongs to. After the answer is decided and
 * not awaited, so that the answer takes no longer than any other refusal (workerd: waitUntil).
 */
function tellOwner(c: Context<AppEnv>, to: string, providerLabel: string): void {
  const deps = c.get("deps");
  const work = sendOwnerNotice(
    { db: c.get("db"), vault: deps.vault, mailer: deps.mailer, logger: deps.logger },
    { to, providerLabel, at: deps.clock.now() },
  ).then(() => undefined);
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // No execution context (Node): the promise runs on by itself.
  }
}

export function oauthRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/auth/oauth/providers",
      tag: "oauth",
      auth: "public",
      summary: "The providers the sign-in page offers (enabled, with a client id)",
      response: { schema: PublicProviders },
    },
    async (c, { reply }) => reply({ providers: await listPublicProviders({ ctx: verbContext(c), input: undefined }) }),
  );

  const startDoc =
    "302 to the provider's authorization endpoint with state, PKCE S256 and (OIDC) nonce, kept server-side for 10 minutes, single use. Sets the HttpOnly, SameSite=Lax cookie svc_oauth_state that the callback requires (the sign-in is bound to this browser). 400 when the provider is not configured or not enabled; 502 when its discovery document cannot be read.";
  const callbackDoc =
    "Needs the svc_oauth_state cookie the start route set, equal to `state` (400 otherwise, the request left unused). Exchanges the code and validates the identity (ID token: signature by the JWKS, issuer, audience, nonce, expiry; GitHub: its verified e-mail). Then 302 to `<public_url>/?cb_auth_code=<60-second one-time code>` (session cookie set; before first run `<public_url>/oobe?cb_auth_code=...&bootstrap=1&provider=<name>`, for POST /bootstrap/initialize-oauth) or, for a user with MFA, `<public_url>/?cb_mfa_token=<token for POST /auth/mfa/verify>` (no session). A link request (POST /account/oauth/{provider}/link) ends with `<public_url>/?oauth_linked=<provider>` instead (no new session). Refusals are JSON: 400 (state, token, e-mail), 403 (account rules), 409 (identity linked to another user), 502 (provider failed).";
  for (const name of ["github", "google"] as const) {
    route(
      app,
      {
        method: "get",
        path: `/api/v1/auth/oauth/${name}`,
        tag: "oauth",
        auth: "public",
        summary: `Start signing in with ${name === "github" ? "GitHub" : "Google"}`,
        description: startDoc,
        query: StartQuery,
        response: REDIRECT,
        errors: [502],
      },
      (c, { query }) => start(c, name, name, query.invite_token),
    );
    route(
      app,
      {
        method: "get",
        path: `/api/v1/auth/oauth/${name}/callback`,
        tag: "oauth",
        auth: "public",
        summary: `The ${name === "github" ? "GitHub" : "Google"} callback`,
        description: callbackDoc,
        query: CallbackQuery,
        response: REDIRECT,
        errors: [403, 409, 502],
      },
      (c, { query }) => callback(c, name, name, query),
    );
  }
  route(
    app,
    {
      method: "get",
      path: "/api/v1/auth/oauth/oidc/:slug",
      tag: "oauth",
      auth: "public",
      summary: "Start signing in with an OpenID Connect provider (Microsoft included)",
      description: startDoc,
      params: SlugParam,
      query: StartQuery,
      response: REDIRECT,
      errors: [502],
    },
    (c, { params, query }) => start(c, params.slug, "oidc", query.invite_token),
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/auth/oauth/oidc/:slug/callback",
      tag: "oauth",
      auth: "public",
      summary: "An OpenID Connect provider's callback",
      description: callbackDoc,
      params: SlugParam,
      query: CallbackQuery,
      response: REDIRECT,
      errors: [403, 409, 502],
    },
    (c, { params, query }) => callback(c, params.slug, "oidc", query),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/auth/exchange",
      tag: "oauth",
      auth: "public",
      summary: "Turn the callback's one-time code into a session token",
      description: 'The code works once, for 60 seconds. Unknown, used or expired: 400 "Invalid or expired auth code".',
      query: ExchangeQuery,
      response: { schema: ExchangedToken },
    },
    async (c, { query, reply }) => {
      const { ctx, input } = await signInArgs(c, { code: query.code });
      return reply(await exchangeAuthCode({ ctx, input }));
    },
  );
}
