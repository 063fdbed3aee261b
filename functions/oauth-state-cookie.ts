// The cookie that binds an OAuth sign-in to the browser that started it (issue 36 item 2; RFC 9700
// 4.7.1, OWASP's login-CSRF advice): the start answer sets it to the request's `state`, and the callback
// is refused unless the browser sends it back equal to the `state` the provider returned. HttpOnly;
// SameSite=Lax so that the provider's top-level redirect back carries it; only under the OAuth routes;
// as long as the state row lives. One at a time: a second start in the same browser replaces it.
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { STATE_TTL_MS } from "../shared/verbs/oauth/flow.ts";
import type { AppEnv } from "./deps.ts";
import { isSecure } from "./session-cookies.ts";

export const OAUTH_STATE_COOKIE = "svc_oauth_state";
const PATH = "/api/v1/auth/oauth";

export function setOAuthStateCookie(c: Context<AppEnv>, state: string): void {
  setCookie(c, OAUTH_STATE_COOKIE, state, {
    httpOnly: true,
    sameSite: "Lax",
    path: PATH,
    secure: isSecure(c),
    maxAge: STATE_TTL_MS / 1000,
  });
}

export const readOAuthStateCookie = (c: Context<AppEnv>): string | undefined => getCookie(c, OAUTH_STATE_COOKIE);

export function clearOAuthStateCookie(c: Context<AppEnv>): void {
  deleteCookie(c, OAUTH_STATE_COOKIE, { path: PATH, httpOnly: true, sameSite: "Lax", secure: isSecure(c) });
}
