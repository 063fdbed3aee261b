// The browser side of a cookie session: the two cookies a sign-in answer sets, as a Cookie header, and
// the svc_csrf value a client repeats in X-CSRF-Token (spec 5.3).
import { expect } from "vitest";

export interface CookieSession {
  /** `svc_session=...; svc_csrf=...`, for the Cookie header. */
  cookie: string;
  /** The svc_csrf cookie's value. */
  csrf: string;
}

export function sessionCookies(res: Response): CookieSession {
  const jar = Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(";")[0]!.split("=") as [string, string]));
  expect(jar.svc_session, "the answer sets svc_session").toEqual(expect.any(String));
  expect(jar.svc_csrf, "the answer sets svc_csrf").toEqual(expect.any(String));
  return { cookie: `svc_session=${jar.svc_session}; svc_csrf=${jar.svc_csrf}`, csrf: jar.svc_csrf! };
}

/** Headers of a cookie-session write that repeats the session's own token. */
export function csrfHeaders(s: CookieSession): Record<string, string> {
  return { cookie: s.cookie, "x-csrf-token": s.csrf };
}
