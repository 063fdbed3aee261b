// Signed double-submit CSRF (spec 5.3, OWASP): a cookie-session write passes only with X-CSRF-Token equal
// to the svc_csrf cookie AND carrying a valid MAC for the session the cookie authenticated. Planted,
// swapped, forged and tampered tokens are 403; bearer-only writes and the exempt routes are untouched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesToBase64Url } from "../../../shared/auth/encoding.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { type CookieSession, sessionCookies } from "../../helpers/session-cookies.ts";

let a: Actors;
const editor = { email: "editor@example.com", password: "editor password for tests" };
const admin = { email: "admin@example.com", password: "admin password for tests" };

async function signIn(who: { email: string; password: string }): Promise<CookieSession & { body: { csrf_token: string } }> {
  const res = await a.req("POST", "/api/v1/auth/login", undefined, who);
  expect(res.status).toBe(200);
  return { ...sessionCookies(res), body: await res.json() };
}

/** A harmless cookie write: `cookie` is the whole Cookie header, `header` the X-CSRF-Token (none when undefined). */
function write(cookie: string, header?: string, extra: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { cookie, ...extra };
  if (header !== undefined) headers["x-csrf-token"] = header;
  return a.req("PATCH", "/api/v1/users/me", undefined, { display_name: "Ed" }, headers);
}

/** The session cookie of `s` alone, with `csrf` planted as its svc_csrf cookie. */
const withCsrfCookie = (s: CookieSession, csrf: string) => `${s.cookie.split(";")[0]}; svc_csrf=${csrf}`;

const randomPart = () => bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));

async function expectCsrfRefusal(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  const body = await res.json();
  expect(body.error_code).toBe("PERMISSION_DENIED");
  expect(body.detail).toMatch(/^CSRF check failed: /);
}

beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("signed double-submit CSRF", () => {
  it("a cookie-session write with the session's own token passes; the token is <nonce>.<mac> and also in the body", async () => {
    const s = await signIn(editor);
    expect(s.csrf).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(s.body.csrf_token).toBe(s.csrf);
    const res = await write(s.cookie, s.csrf);
    expect(res.status).toBe(200);
    expect((await res.json()).display_name).toBe("Ed");
  });

  it("refuses a missing header and a header that differs from the cookie", async () => {
    const s = await signIn(editor);
    const other = await signIn(editor);
    await expectCsrfRefusal(await write(s.cookie));
    // A valid token of another session in the header, the session's own in the cookie: not double-submitted.
    await expectCsrfRefusal(await write(s.cookie, other.csrf));
  });

  it("refuses a token minted for another session, of the same user or another, even as a matching pair", async () => {
    const first = await signIn(editor);
    const second = await signIn(editor);
    const someoneElse = await signIn(admin);
    // Swapped: first's session cookie with second's token as both svc_csrf cookie and header.
    await expectCsrfRefusal(await write(withCsrfCookie(first, second.csrf), second.csrf));
    await expectCsrfRefusal(await write(withCsrfCookie(second, first.csrf), first.csrf));
    await expectCsrfRefusal(await write(withCsrfCookie(first, someoneElse.csrf), someoneElse.csrf));
    // Each still works with its own.
    expect((await write(first.cookie, first.csrf)).status).toBe(200);
    expect((await write(second.cookie, second.csrf)).status).toBe(200);
  });

  it("refuses a planted cookie+header pair of the right shape and a tampered MAC", async () => {
    const s = await signIn(editor);
    const planted = `${randomPart()}.${randomPart()}`;
    await expectCsrfRefusal(await write(withCsrfCookie(s, planted), planted));
    const [nonce, mac] = s.csrf.split(".") as [string, string];
    const flipped = `${mac.slice(0, 10)}${mac[10] === "A" ? "B" : "A"}${mac.slice(11)}`;
    const tampered = `${nonce}.${flipped}`;
    await expectCsrfRefusal(await write(withCsrfCookie(s, tampered), tampered));
    // The nonce moved under a valid MAC, and a token cut short.
    const otherNonce = `${randomPart()}.${mac}`;
    await expectCsrfRefusal(await write(withCsrfCookie(s, otherNonce), otherNonce));
    await expectCsrfRefusal(await write(withCsrfCookie(s, nonce), nonce));
    expect((await write(s.cookie, s.csrf)).status).toBe(200);
  });

  it("a masquerade session gets a token bound to it", async () => {
    const viewerId = (await (await a.req("GET", "/api/v1/auth/me", a.viewer)).json()).id as number;
    const res = await a.req("POST", `/api/v1/admin/users/${viewerId}/masquerade`, a.admin, { minutes: 5 });
    expect(res.status).toBe(200);
    const s = sessionCookies(res);
    expect((await res.json()).csrf_token).toBe(s.csrf);
    // A masquerade may not edit the account, so the write here is signing out.
    const logout = (cookie: string, header: string) =>
      a.req("POST", "/api/v1/auth/logout", undefined, undefined, { cookie, "x-csrf-token": header });
    const admins = await signIn(admin);
    await expectCsrfRefusal(await logout(withCsrfCookie(s, admins.csrf), admins.csrf));
    expect((await logout(s.cookie, s.csrf)).status).toBe(200);
  });

  it("bearer-only writes need no token; a bearer write that also carries the cookie is still double-submitted", async () => {
    expect((await a.req("PATCH", "/api/v1/users/me", a.editor, { display_name: "Bearer" })).status).toBe(200);
    const s = await signIn(editor);
    await expectCsrfRefusal(await write(s.cookie, undefined, { authorization: `Bearer ${a.editor}` }));
    expect((await write(s.cookie, s.csrf, { authorization: `Bearer ${a.editor}` })).status).toBe(200);
  });

  it("a refused session cookie grants nothing: the write is 401, not a CSRF refusal", async () => {
    const planted = `${randomPart()}.${randomPart()}`;
    const res = await write(`svc_session=not.a.session; svc_csrf=${planted}`, planted);
    expect(res.status).toBe(401);
  });

  it("the exempt routes take a cookie-session write without the header", async () => {
    const s = await signIn(editor);
    const login = await a.req("POST", "/api/v1/auth/login", undefined, editor, { cookie: s.cookie });
    expect(login.status).toBe(200);
    const cases: [string, unknown][] = [
      ["/api/v1/auth/mfa/verify", { mfa_token: "nope", code: "000000" }],
      ["/api/v1/auth/force-change-password", { change_token: "nope", new_password: "a long enough password" }],
      ["/api/v1/auth/accept-invite", { token: "inv_nope", password: "a long enough password" }],
      ["/api/v1/health", {}],
    ];
    for (const [path, body] of cases) {
      const res = await a.req("POST", path, undefined, body, { cookie: s.cookie });
      expect(res.status, path).not.toBe(403);
    }
    // A non-exempt sibling path is checked.
    await expectCsrfRefusal(await a.req("POST", "/api/v1/auth/logout", undefined, undefined, { cookie: s.cookie }));
  });
});
