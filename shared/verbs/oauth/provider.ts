// One configured provider, whatever its kind: where to send the browser, and how to turn the callback's
// code into a ProviderIdentity. Google and Microsoft are OIDC with a fixed issuer; GitHub is OAuth 2.0.
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import type { OutboundHttp } from "../../net/outbound.ts";
import type { Vault } from "../../vault/vault.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { readClientSecret, readOAuthProviders, type StoredProvider } from "../settings/oauth.ts";
import { GITHUB_API, GITHUB_BASE, type GitHubEndpoints, githubAuthorizeUrl, githubIdentity } from "./github.ts";
import { fetchJson, formBody, type ProviderHttp, upstreamFailed } from "./http.ts";
import type { ProviderIdentity } from "./identity.ts";
import { type Discovery, discover, fetchUserInfo, verifyIdToken } from "./oidc.ts";

export const GOOGLE_ISSUER = "https://accounts.google.com";
export const microsoftIssuer = (tenant: string) => `https://login.microsoftonline.com/${tenant}/v2.0`;
const LABELS: Record<string, string> = { github: "GitHub", google: "Google", microsoft: "Microsoft" };

export interface Provider {
  name: string;
  config: StoredProvider;
  label: string;
  clientId: string;
  clientSecret: string | null;
  http: ProviderHttp;
}

/** What the route path says: /auth/oauth/github, /auth/oauth/google, or /auth/oauth/oidc/{slug}. */
export type ProviderRoute = "github" | "google" | "oidc";

export const routeOf = (c: StoredProvider): ProviderRoute => (c.type === "github" || c.type === "google" ? c.type : "oidc");

/**
 * The enabled provider `name` reached through `via` (any route when absent: linking names the provider
 * only); 400 when it is not configured or not enabled.
 */
export async function loadProvider(
  db: Db,
  deps: { outbound: OutboundHttp; vault: Vault },
  name: string,
  via?: ProviderRoute,
): Promise<Provider> {
  const config = (await readOAuthProviders(db))[name];
  const kind = via === "oidc" ? "OIDC provider" : "OAuth provider";
  if (!config || (via && routeOf(config) !== via) || !config.client_id)
    throw new ApiError("BAD_REQUEST", `${kind} '${name}' not configured`);
  if (!config.enabled) throw new ApiError("BAD_REQUEST", `${kind} '${name}' not enabled`);
  const label = config.label ?? LABELS[config.type] ?? name;
  return {
    name,
    config,
    label,
    clientId: config.client_id,
    clientSecret: await readClientSecret(db, deps.vault, name),
    http: { outbound: deps.outbound, policy: await readOutboundPolicy(db), label },
  };
}

function issuerOf(c: StoredProvider): string {
  if (c.type === "google") return GOOGLE_ISSUER;
  if (c.type === "microsoft") return microsoftIssuer(c.tenant ?? "common");
  return c.issuer!;
}

const githubEndpoints = (c: StoredProvider): GitHubEndpoints => ({
  base: (c.base_url ?? GITHUB_BASE).replace(/\/+$/, ""),
  api: (c.api_url ?? GITHUB_API).replace(/\/+$/, ""),
});

export interface AuthorizationParams {
  state: string;
  nonce: string;
  codeChallenge: string;
  redirectUri: string;
}

/** The provider's authorization URL for this request (PKCE S256 everywhere; nonce for OIDC). */
export async function authorizationUrl(p: Provider, a: AuthorizationParams): Promise<string> {
  const common = {
    client_id: p.clientId,
    redirect_uri: a.redirectUri,
    state: a.state,
    code_challenge: a.codeChallenge,
    code_challenge_method: "S256",
  };
  if (p.config.type === "github") return githubAuthorizeUrl(githubEndpoints(p.config), common);
  const doc = await discover(p.http, issuerOf(p.config));
  const url = new URL(doc.authorization_endpoint);
  for (const [k, v] of Object.entries({ ...common, response_type: "code", scope: "openid email profile", nonce: a.nonce }))
    url.searchParams.set(k, v);
  return url.toString();
}

export interface CallbackParams {
  code: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  now: Date;
}

async function oidcTokens(p: Provider, doc: Discovery, c: CallbackParams): Promise<{ idToken: string; accessToken: string | null }> {
  const methods = doc.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  const basic = p.clientSecret !== null && methods.includes("client_secret_basic");
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  // RFC 6749 2.3.1: the client id and secret are form-encoded before they go into Basic.
  if (basic) headers.authorization = `Basic ${btoa(`${encodeURIComponent(p.clientId)}:${encodeURIComponent(p.clientSecret!)}`)}`;
  const tokens = await fetchJson<{ id_token?: string; access_token?: string }>(p.http, "token exchange", doc.token_endpoint, {
    method: "POST",
    headers,
    body: formBody({
      grant_type: "authorization_code",
      code: c.code,
      redirect_uri: c.redirectUri,
      code_verifier: c.codeVerifier,
      client_id: p.clientId,
      client_secret: basic ? null : p.clientSecret,
    }),
  });
  if (typeof tokens.id_token !== "string") throw upstreamFailed(p.http, "token exchange (no ID token)");
  return {
    idToken: tokens.id_token,
    accessToken: typeof tokens.access_token === "string" && tokens.access_token ? tokens.access_token : null,
  };
}

/** The identity behind the callback's code; a 400 for a refused token or e-mail, 502 for a failing provider. */
export async function identityFromCallback(p: Provider, c: CallbackParams): Promise<ProviderIdentity> {
  if (p.config.type === "github")
    return githubIdentity(p.http, githubEndpoints(p.config), {
      clientId: p.clientId,
      clientSecret: p.clientSecret,
      code: c.code,
      redirectUri: c.redirectUri,
      codeVerifier: c.codeVerifier,
    });
  const doc = await discover(p.http, issuerOf(p.config));
  const tokens = await oidcTokens(p, doc, c);
  const claims = await verifyIdToken(p.http, doc, tokens.idToken, { clientId: p.clientId, nonce: c.nonce, now: c.now });
  let { email, email_verified: verified, name } = claims;
  // Response type `code` lets a provider keep the profile claims for UserInfo (Core 5.4; oidc-provider's
  // default): ask it when the ID token lacks them, taking e-mail and its verification from there together.
  if (typeof email !== "string" || typeof verified !== "boolean") {
    if (!tokens.accessToken) throw new ApiError("BAD_REQUEST", `Could not obtain email from ${p.label}.`);
    const info = await fetchUserInfo(p.http, doc, tokens.accessToken, claims.sub!);
    ({ email, email_verified: verified } = info);
    name ??= info.name;
  }
  if (typeof email !== "string" || !email) throw new ApiError("BAD_REQUEST", `Could not obtain email from ${p.label}.`);
  if (verified !== true)
    throw new ApiError("BAD_REQUEST", `${p.label} has not verified the e-mail address ${email}; only a verified e-mail can sign in.`);
  return { issuer: claims.iss!, subject: claims.sub!, email: email.toLowerCase(), name: typeof name === "string" ? name : null };
}

/** The providers the sign-in page offers: enabled, with a client id. */
export async function publicProviders(db: Db): Promise<{ name: string; type: "oauth" | "oidc"; label: string }[]> {
  const all = await readOAuthProviders(db);
  return Object.entries(all)
    .filter(([, c]) => c.enabled && c.client_id)
    .map(([name, c]) => ({
      name,
      type: routeOf(c) === "oidc" ? ("oidc" as const) : ("oauth" as const),
      label: c.label ?? LABELS[c.type] ?? name,
    }));
}
