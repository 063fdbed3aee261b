// Signed double-submit CSRF (spec 5.3, OWASP): a write that carries the svc_session cookie must repeat
// the readable svc_csrf cookie in X-CSRF-Token, and that token must carry a valid MAC for the session
// the cookie authenticated (shared/auth/csrf-token.ts). Bearer-only requests carry no cookie and are
// not checked.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { timingSafeEqualString } from "../../shared/auth/constant-time.ts";
import { verifyCsrfToken } from "../../shared/auth/csrf-token.ts";
import { ApiError } from "../../shared/errors.ts";
import { CSRF_COOKIE, SESSION_COOKIE } from "../../shared/identity/credential.ts";
import type { AppEnv } from "../deps.ts";
import { cookieSessionId } from "./authenticate.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const EXEMPT = [
  "/api/v1/auth/login",
  "/api/v1/auth/register",
  "/api/v1/auth/demo",
  "/api/v1/auth/accept-invite",
  "/api/v1/auth/vault-reset",
  "/api/v1/auth/force-change-password",
  "/api/v1/auth/mfa/verify",
  "/api/v1/health",
  // The CLI's code exchange: the code and its PKCE verifier are the credential (docs/adr/0504), no cookie grants it anything.
  "/api/v1/auth/cli-login/token",
  // The acknowledge link's token is its credential (docs/adr/0447): a session cookie adds nothing to forge.
  "/api/v1/ack",
  // Likewise a status page subscription's signed links (docs/adr/0458).
  "/api/v1/status-pages/subscriptions",
];

export const csrf: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!WRITES.has(c.req.method) || !getCookie(c, SESSION_COOKIE)) return next();
  const path = c.req.path;
  if (EXEMPT.some((p) => path === p || path.startsWith(`${p}/`))) return next();
  const cookie = getCookie(c, CSRF_COOKIE);
  const header = c.req.header("x-csrf-token");
  if (!cookie || !header || !timingSafeEqualString(cookie, header))
    throw ApiError.forbidden("CSRF check failed: send the svc_csrf cookie's value in the X-CSRF-Token header.");
  // Without a session from the cookie (a bearer header authenticated, or the cookie was refused) the
  // cookie grants nothing here, so there is no session to bind to; a protected route answers 401.
  const sessionId = cookieSessionId(c);
  if (sessionId === undefined) return next();
  const key = await c.get("deps").identity.signingKey(c.get("db"));
  if (!verifyCsrfToken(key, sessionId, header))
    throw ApiError.forbidden(
      "CSRF check failed: the X-CSRF-Token does not belong to this session; sign in again for a fresh svc_csrf cookie.",
    );
  return next();
};
