// Resolves the presented credential (session cookie, bearer JWT or API token) into the request's
// actor. It refuses nothing itself: a protected route answers 401 with the reason recorded here,
// a public route ignores it.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { timingSafeEqualString } from "../../shared/auth/constant-time.ts";
import type { Db } from "../../shared/db/database.ts";
import { isApiToken, LEGACY_ACTOR, type Resolution, resolveApiToken, resolveSession } from "../../shared/identity/resolve.ts";
import type { AppEnv, Deps } from "../deps.ts";

export const SESSION_COOKIE = "svc_session";
export const CSRF_COOKIE = "svc_csrf";

/** The bearer credential of an Authorization header value, if it carries one. */
export function bearerCredential(header: string | undefined | null): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

/** Any presented credential (legacy static token, API token or session JWT) -> actor or refusal. */
export async function resolveCredential(deps: Deps, db: Db, credential: string): Promise<Resolution> {
  const now = deps.clock.now();
  const legacy = deps.config.SVC_API_TOKEN;
  if (legacy && timingSafeEqualString(credential, legacy))
    return deps.config.SVC_LEGACY_AUTH
      ? { actor: LEGACY_ACTOR }
      : { error: "The static SVC_API_TOKEN is deprecated and refused; create an API token instead." };
  const cache = deps.credentialCache;
  if (!cache?.live) return resolveFromDatabase(deps, db, credential, now);
  const key = cache.keyOf(credential);
  const remembered = cache.get(key, now.getTime());
  if (remembered) return { actor: remembered };
  const generation = cache.generation;
  const resolution = await resolveFromDatabase(deps, db, credential, now);
  if ("actor" in resolution && resolution.expiresAt !== undefined)
    cache.set(key, resolution.actor, resolution.expiresAt, generation, deps.clock.now().getTime());
  return resolution;
}

async function resolveFromDatabase(deps: Deps, db: Db, credential: string, now: Date): Promise<Resolution> {
  if (isApiToken(credential)) return resolveApiToken(db, credential, now);
  return resolveSession(db, await deps.identity.signingKey(db), credential, now);
}

/** The credential a request presents and where: a bearer header wins over the session cookie. */
function presentedCredential(c: Context<AppEnv>): { credential: string; via: "bearer" | "cookie" } | undefined {
  const bearer = bearerCredential(c.req.header("authorization"));
  if (bearer) return { credential: bearer, via: "bearer" };
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? { credential: cookie, via: "cookie" } : undefined;
}

/** The session id of the svc_session cookie, when that cookie is what authenticated the request. */
export function cookieSessionId(c: Context<AppEnv>): string | undefined {
  const actor = c.get("actor");
  if (actor?.kind !== "session" || presentedCredential(c)?.via !== "cookie") return undefined;
  return actor.sessionId;
}

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const credential = presentedCredential(c)?.credential;
  if (!credential) return next();
  const resolution = await resolveCredential(c.get("deps"), c.get("db"), credential);
  if ("actor" in resolution) c.set("actor", resolution.actor);
  else c.set("authError", resolution.error);
  return next();
};
