// OpenID Connect: the discovery document, the ID token's validation with jose (signature by the
// provider's key set, jwks-cache.ts; issuer, audience (and azp), nonce, exp/iat with leeway), and the
// UserInfo answer for the claims an ID token leaves out (OpenID Connect Core 5.4).
import { createLocalJWKSet, errors, type JSONWebKeySet, jwtVerify, type JWTPayload } from "jose";
import { ApiError } from "../../errors.ts";
import { fetchJson, type ProviderHttp, upstreamFailed } from "./http.ts";
import { currentKeySet, refetchKeySet } from "./jwks-cache.ts";

export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  token_endpoint_auth_methods_supported?: string[];
}

const CLOCK_TOLERANCE_S = 30;
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

const trimSlash = (u: string) => u.replace(/\/+$/, "");

export async function discover(h: ProviderHttp, issuer: string): Promise<Discovery> {
  const doc = await fetchJson<Partial<Discovery>>(h, "discovery", `${trimSlash(issuer)}/.well-known/openid-configuration`);
  const fields = ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"] as const;
  if (fields.some((f) => typeof doc[f] !== "string")) throw upstreamFailed(h, "discovery");
  // The document must be the issuer's own (OpenID Connect Discovery 4.3). A Microsoft multi-tenant
  // document names "{tenantid}" where the tenant goes.
  if (trimSlash(doc.issuer!) !== trimSlash(issuer) && !doc.issuer!.includes("{tenantid}"))
    throw upstreamFailed(h, "discovery (issuer mismatch)");
  return doc as Discovery;
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
    jwtVerify(token, createLocalJWKSet(set), {
      audience: check.clientId,
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: check.now,
      algorithms: ALGORITHMS,
      requiredClaims: ["iss", "sub", "exp", "iat"],
    });
  let result;
  try {
    const { set, fresh } = await currentKeySet(h, doc.jwks_uri, check.now);
    try {
      result = await verify(set);
    } catch (e) {
      // An unknown kid: the provider may have rotated its keys since the set was fetched.
      if (!(e instanceof errors.JWKSNoMatchingKey) || fresh) throw e;
      const again = await refetchKeySet(h, doc.jwks_uri, check.now);
      if (!again) throw e;
      result = await verify(again);
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

/**
 * The UserInfo answer for the subject of the ID token (Core 5.3): asked with the access token, JSON
 * only (a signed UserInfo JWT is not supported), and refused unless its `sub` is the ID token's (5.3.2:
 * a substituted answer must not be used).
 */
export async function fetchUserInfo(
  h: ProviderHttp,
  doc: Discovery,
  accessToken: string,
  subject: string,
): Promise<Record<string, unknown>> {
  if (!doc.userinfo_endpoint)
    throw new ApiError(
      "BAD_REQUEST",
      `Could not obtain email from ${h.label}: its ID token has none and it publishes no UserInfo endpoint.`,
    );
  const info = await fetchJson<Record<string, unknown>>(h, "user info", doc.userinfo_endpoint, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (!info || typeof info !== "object") throw upstreamFailed(h, "user info");
  if (info.sub !== subject)
    throw new ApiError("BAD_REQUEST", `${h.label}'s UserInfo answer is for another subject than the ID token; the sign-in was refused.`);
  return info;
}
