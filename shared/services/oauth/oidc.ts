// OpenID Connect: the discovery document, the JWKS (cached per jwks_uri; a `kid` not in the cache
// fetches it again once, so a rotated key is picked up and a removed one is refused), and the ID
// token's validation with jose: signature, issuer, audience (and azp), nonce, exp/iat with leeway.
import { createLocalJWKSet, errors, type JSONWebKeySet, jwtVerify, type JWTPayload } from "jose";
import { ApiError } from "../../errors.ts";
import { fetchJson, type ProviderHttp, upstreamFailed } from "./http.ts";

export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth_methods_supported?: string[];
}

const CLOCK_TOLERANCE_S = 30;
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const jwksCache = new Map<string, JSONWebKeySet>();

const trimSlash = (u: string) => u.replace(/\/+$/, "");

export async function discover(h: ProviderHttp, issuer: string): Promise<Discovery> {
  const doc = await fetchJson<Partial<Discovery>>(h, "discovery", `${trimSlash(issuer)}/.well-known/openid-configuration`);
  const fields = ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"] as const;
  if (fields.some((f) => typeof doc[f] !== "string")) throw upstreamFailed(h, "discovery");
  // The document must be the issuer's own (OpenID Connect Discovery 4.3). A Microsoft multi-tenant
  // document names "{tenantid}" where the tenant goes.
  if (trimSlash(doc.issuer!) !== trimSlash(issuer) && !doc.issuer!.includes("{tenantid}")) throw upstreamFailed(h, "discovery (issuer mismatch)");
  return doc as Discovery;
}

async function fetchJwks(h: ProviderHttp, uri: string): Promise<JSONWebKeySet> {
  const set = await fetchJson<JSONWebKeySet>(h, "key set", uri);
  if (!set || !Array.isArray(set.keys)) throw upstreamFailed(h, "key set");
  jwksCache.set(uri, set);
  return set;
}

const refused = (why: string) => new ApiError("BAD_REQUEST", `The ID token was refused: ${why}.`);

export interface IdTokenCheck {
  clientId: string;
  nonce: string;
  now: Date;
}

/** The validated claims of `token`; a 400 saying why otherwise. */
export async function verifyIdToken(h: ProviderHttp, doc: Discovery, token: string, check: IdTokenCheck): Promise<JWTPayload> {
  const verify = (set: JSONWebKeySet) =>
    jwtVerify(token, createLocalJWKSet(set), { audience: check.clientId, clockTolerance: CLOCK_TOLERANCE_S, currentDate: check.now, algorithms: ALGORITHMS, requiredClaims: ["iss", "sub", "exp", "iat"] });
  let result;
  try {
    const cached = jwksCache.get(doc.jwks_uri);
    try {
      result = await verify(cached ?? (await fetchJwks(h, doc.jwks_uri)));
    } catch (e) {
      // An unknown kid: the provider may have rotated its keys since the cache was filled.
      if (!(e instanceof errors.JWKSNoMatchingKey) || !cached) throw e;
      result = await verify(await fetchJwks(h, doc.jwks_uri));
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (e instanceof errors.JWKSNoMatchingKey) throw refused("it is not signed by a key the provider publishes");
    if (e instanceof errors.JWSSignatureVerificationFailed) throw refused("its signature does not verify");
    if (e instanceof errors.JWTExpired) throw refused("it has expired");
    if (e instanceof errors.JWTClaimValidationFailed) throw refused(`claim ${e.claim} is not acceptable`);
    throw refused("it is malformed or uses an unaccepted algorithm");
  }
  const claims = result.payload;
  const expectedIssuer = doc.issuer.replace("{tenantid}", typeof claims.tid === "string" ? claims.tid : "{tenantid}");
  if (claims.iss !== expectedIssuer) throw refused("claim iss is not the provider's issuer");
  if (claims.nonce !== check.nonce) throw refused("the nonce does not match this sign-in");
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if ((audiences.length > 1 || claims.azp !== undefined) && claims.azp !== check.clientId) throw refused("claim azp is not this client");
  return claims;
}
