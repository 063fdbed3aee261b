// Resolves the presented credential (session cookie, bearer JWT or API token) into the request's
// actor. It refuses nothing itself: a protected route answers 401 with the reason recorded here,
// a public route ignores it. Resolution itself is shared/identity/credential.ts (the sidecar's
// WebSocket handshakes use it too).
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { bearerCredential, resolveCredential, SESSION_COOKIE } from "../../shared/identity/credential.ts";
import type { AppEnv } from "../deps.ts";

/** The credential a request presents and where: a bearer header wins over the session cookie. */
export function presentedCredential(c: Context<AppEnv>): { credential: string; via: "bearer" | "cookie" } | undefined {
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
