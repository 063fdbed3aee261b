// Resolves the presented credential (session cookie, bearer JWT or API token) into the request's
// actor. It refuses nothing itself: a protected route answers 401 with the reason recorded here,
// a public route ignores it.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { timingSafeEqualString } from "../../shared/auth/constant-time.ts";
import { isApiToken, LEGACY_ACTOR, resolveApiToken, resolveSession } from "../../shared/identity/resolve.ts";
import type { AppEnv } from "../deps.ts";

export const SESSION_COOKIE = "svc_session";
export const CSRF_COOKIE = "svc_csrf";

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const bearer = c.req.header("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const credential = bearer ?? getCookie(c, SESSION_COOKIE);
  if (!credential) return next();
  const deps = c.get("deps");
  const db = c.get("db");
  const now = deps.clock.now();
  const legacy = deps.config.SVC_API_TOKEN;
  let resolution;
  if (legacy && timingSafeEqualString(credential, legacy)) {
    resolution = deps.config.SVC_LEGACY_AUTH
      ? { actor: LEGACY_ACTOR }
      : { error: "The static SVC_API_TOKEN is deprecated and refused; create an API token instead." };
  } else if (isApiToken(credential)) {
    resolution = await resolveApiToken(db, credential, now);
  } else {
    resolution = await resolveSession(db, await deps.identity.signingKey(db), credential, now);
  }
  if ("actor" in resolution) c.set("actor", resolution.actor);
  else c.set("authError", resolution.error);
  return next();
};
