// Double-submit CSRF (spec 5.3): a write that carries the svc_session cookie must repeat the readable
// svc_csrf cookie in X-CSRF-Token. Bearer-only requests carry no cookie and are not checked.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { timingSafeEqualString } from "../../shared/auth/constant-time.ts";
import { ApiError } from "../../shared/errors.ts";
import type { AppEnv } from "../deps.ts";
import { CSRF_COOKIE, SESSION_COOKIE } from "./authenticate.ts";

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
];

export const csrf: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!WRITES.has(c.req.method) || !getCookie(c, SESSION_COOKIE)) return next();
  const path = c.req.path;
  if (EXEMPT.some((p) => path === p || path.startsWith(`${p}/`))) return next();
  const cookie = getCookie(c, CSRF_COOKIE);
  const header = c.req.header("x-csrf-token");
  if (!cookie || !header || !timingSafeEqualString(cookie, header))
    throw new ApiError(403, "PERMISSION_DENIED", "CSRF check failed: send the svc_csrf cookie's value in the X-CSRF-Token header.");
  return next();
};
