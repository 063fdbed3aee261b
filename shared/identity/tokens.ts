// Signed JWTs (jose, HS256). Each purpose has its own audience, so an MFA or password-change token can
// never serve as a session (spec 5.1).
import { SignJWT, jwtVerify } from "jose";

export const AUDIENCE = {
  session: "svc:session",
  mfa: "svc:mfa",
  passwordChange: "svc:password-change",
} as const;
export type Audience = (typeof AUDIENCE)[keyof typeof AUDIENCE];

const ISSUER = "svc-control-plane";

export interface TokenClaims {
  userId: number;
  /** Session id for session tokens. */
  sid?: string;
  /** When the token expires (epoch seconds); set on verified tokens. */
  exp?: number;
}

export async function signToken(key: Uint8Array, audience: Audience, claims: TokenClaims, now: Date, ttlSeconds: number): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const jwt = new SignJWT(claims.sid ? { sid: claims.sid } : {})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds);
  return jwt.sign(key);
}

/** The claims of a valid token of that audience, or null (bad signature, expired, other audience). */
export async function verifyToken(key: Uint8Array, audience: Audience, token: string, now: Date): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { audience, issuer: ISSUER, algorithms: ["HS256"], currentDate: now });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId)) return null;
    const exp = typeof payload.exp === "number" ? { exp: payload.exp } : {};
    return typeof payload.sid === "string" ? { userId, sid: payload.sid, ...exp } : { userId, ...exp };
  } catch {
    return null;
  }
}
