// The two cookies of a browser session (spec 5.1, 5.3): svc_session (HttpOnly, SameSite=Strict) and
// the readable svc_csrf for the double-submit header, a token bound to that session
// (shared/auth/csrf-token.ts). Secure under TLS or a trusted proxy's https.
import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { CSRF_COOKIE, SESSION_COOKIE } from "../shared/identity/credential.ts";
import type { IssuedSession } from "../shared/verbs/auth/issue-session.ts";
import type { AppEnv } from "./deps.ts";

/** True when the browser reached us over https (directly, or through a trusted proxy that says so). */
export function isSecure(c: Context<AppEnv>): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  // clientIp differs from the socket peer only when the peer is a trusted proxy, so only then does
  // its X-Forwarded-Proto count.
  return c.get("viaTrustedProxy") === true && c.req.header("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

export function setSessionCookies(c: Context<AppEnv>, s: IssuedSession): void {
  const secure = isSecure(c);
  setCookie(c, SESSION_COOKIE, s.token, { httpOnly: true, sameSite: "Strict", path: "/", secure, maxAge: s.maxAgeSeconds });
  setCookie(c, CSRF_COOKIE, s.csrfToken, { httpOnly: false, sameSite: "Strict", path: "/", secure, maxAge: s.maxAgeSeconds });
}

export function clearSessionCookies(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  deleteCookie(c, CSRF_COOKIE, { path: "/" });
}
