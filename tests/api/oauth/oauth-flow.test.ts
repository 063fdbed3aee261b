// Sign-in through OpenID Connect and GitHub, driven over HTTP only against peers on loopback: the
// jose-built OpenID provider (tests/helpers/oidc-fakes.ts, 127.0.0.93) and the GitHub fake replaying
// recorded answers (127.0.0.92). Each refusal leaves no session behind.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, type FakeOidc, startFakeGitHub, startFakeOidc } from "../../helpers/oidc-fakes.ts";
import { type CaughtMail, type MailCatcher, startMailCatcher } from "../../helpers/mail-catcher.ts";
import { fromSameBrowser } from "../../helpers/oauth-browser.ts";
import { createHarness, type Harness, json } from "../audit/harness.ts";

const BASE = "http://cp.example.test";
let h: Harness;
let oidc: FakeOidc;
let gh: FakeGitHub;
let offsetMs = 0;

const countSessions = async () => Number((await h.t.sql`select count(*)::int as n from sessions`)[0]!.n);

beforeAll(async () => {
  h = await createHarness();
  h.t.runtime.deps.clock = { now: () => new Date(Date.now() + offsetMs) };
  oidc = await startFakeOidc();
  oidc.clock = () => Date.now() + offsetMs;
  gh = await startFakeGitHub();
  expect((await h.call("/api/v1/settings", { method: "PUT", ...json({ public_url: BASE }) })).status).toBe(200);
  const res = await h.call("/api/v1/settings/oauth", {
    method: "PATCH",
    ...json({
      providers: {
        keycloak: {
          type: "oidc",
          issuer: oidc.issuer,
          client_id: oidc.clientId,
          client_secret: oidc.clientSecret,
          enabled: true,
          label: "Keycloak",
          allow_registration: true,
          default_role: "editor",
        },
        github: {
          client_id: gh.clientId,
          client_secret: gh.clientSecret,
          enabled: true,
          base_url: gh.url,
          api_url: gh.url,
          allow_registration: false,
        },
        google: { client_id: "google-client", enabled: false },
      },
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
});
afterEach(() => {
  offsetMs = 0;
  oidc.faults = { tamper: false, wrongNonce: false, signWith: null };
  oidc.jwksCacheControl = null;
  gh.state.unverified = false;
});
afterAll(async () => {
  await oidc?.close();
  await gh?.close();
  await h?.t.close();
});

/** Start at the app, follow the provider's redirect back, answer the app's callback response (same browser). */
async function signIn(start: string): Promise<{ callback: string; res: Response; begin: Response }> {
  const begin = await h.call(start, { token: "" });
  expect(begin.status, await begin.clone().text()).toBe(302);
  expect(begin.headers.get("cache-control")).toBe("no-store");
  const atProvider = await fetch(begin.headers.get("location")!, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get("location")!);
  expect(back.origin).toBe(BASE);
  const callback = back.pathname + back.search;
  return { callback, begin, res: await h.call(callback, fromSameBrowser(begin, { token: "" })) };
}

async function expectRefused(res: Response, status: number, detail: RegExp): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/json/);
  expect(res.headers.get("set-cookie")).toBeNull();
  expect((await res.json()).detail).toMatch(detail);
}

const authCodeOf = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("cb_auth_code");

describe("GET /auth/oauth/providers", () => {
  it("lists the enabled providers with a client id, without credentials", async () => {
    const res = await h.call("/api/v1/auth/oauth/providers", { token: "" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      providers: [
        { name: "github", type: "oauth", label: "GitHub" },
        { name: "keycloak", type: "oidc", label: "Keycloak" },
      ],
    });
  });
});

describe("OpenID Connect", () => {
  it("the start redirect carries state, nonce and PKCE S256, and redirect_uri under public_url", async () => {
    const res = await h.call("/api/v1/auth/oauth/oidc/keycloak", { token: "" });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location")!);
    expect(to.origin + to.pathname).toBe(`${oidc.issuer}/authorize`);
    expect(to.searchParams.get("redirect_uri")).toBe(`${BASE}/api/v1/auth/oauth/oidc/keycloak/callback`);
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    expect(to.searchParams.get("scope")).toBe("openid email profile");
    for (const p of ["state", "nonce", "code_challenge"]) expect(to.searchParams.get(p)?.length).toBeGreaterThanOrEqual(43);
    // Stored hashed: the state itself is nowhere in the table.
    const rows = await h.t.sql`select state_hash, nonce from oauth_states where provider = 'keycloak'`;
    expect(rows.some((r) => r.state_hash === to.searchParams.get("state"))).toBe(false);
    expect(rows.some((r) => r.nonce === to.searchParams.get("nonce"))).toBe(true);
  });

  it("full flow: a new user is registered with the default role, cookie set, code exchanged once for a session token", async () => {
    oidc.user = { sub: "alice-sub", email: "Alice@Example.com", email_verified: true, name: "Alice" };
    const { callback, res, begin } = await signIn("/api/v1/auth/oauth/oidc/keycloak");
    expect(res.status, await res.clone().text()).toBe(302);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("set-cookie")).toMatch(/svc_session=/);
    const location = new URL(res.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(`${BASE}/`);
    const code = authCodeOf(res)!;
    expect(code).toBeTruthy();
    // The token exchange authenticated with client_secret_basic, as the discovery document allows.
    expect(oidc.tokenRequests.at(-1)!.authorization).toMatch(/^Basic /);
    const ex = await h.call(`/api/v1/auth/exchange?code=${encodeURIComponent(code)}`, { token: "" });
    expect(ex.status).toBe(200);
    const { token } = await ex.json();
    const me = await (await h.call("/api/v1/auth/me", { token })).json();
    expect(me).toMatchObject({ email: "alice@example.com", role: "editor" });
    const [identity] = await h.t.sql`select provider, issuer, subject, email from oauth_identities where subject = 'alice-sub'`;
    expect(identity).toEqual({ provider: "keycloak", issuer: oidc.issuer, subject: "alice-sub", email: "alice@example.com" });
    // Single use.
    await expectRefused(
      await h.call(`/api/v1/auth/exchange?code=${encodeURIComponent(code)}`, { token: "" }),
      400,
      /Invalid or expired auth code/,
    );
    // The state was single use too.
    await expectRefused(await h.call(callback, fromSameBrowser(begin, { token: "" })), 400, /Invalid OAuth state/);
    const audit = await h.t.sql`select action from audit_log where action in ('user.registered', 'login.oauth') order by id`;
    expect(audit.map((a) => a.action)).toEqual(["user.registered", "login.oauth"]);
  });

  it("a returning identity signs in to its user even after the e-mail changed at the provider", async () => {
    oidc.user = { sub: "alice-sub", email: "alice.new@example.com", email_verified: true };
    const { res } = await signIn("/api/v1/auth/oauth/oidc/keycloak");
    expect(res.status).toBe(302);
    const { token } = await (await h.call(`/api/v1/auth/exchange?code=${authCodeOf(res)}`, { token: "" })).json();
    expect((await (await h.call("/api/v1/auth/me", { token })).json()).email).toBe("alice@example.com");
  });

  it("refuses a tampered ID token, a wrong nonce and an unverified e-mail, with no session", async () => {
    oidc.user = { sub: "bob-sub", email: "bob@example.com", email_verified: true };
    const before = await countSessions();
    oidc.faults.tamper = true;
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 400, /ID token was refused: its signature does not verify/);
    oidc.faults = { tamper: false, wrongNonce: true, signWith: null };
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 400, /nonce does not match/);
    oidc.faults.wrongNonce = false;
    oidc.user = { sub: "bob-sub", email: "bob@example.com", email_verified: false };
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 400, /not verified the e-mail/);
    expect(await countSessions()).toBe(before);
    expect(await h.t.sql`select 1 from users where email = 'bob@example.com'`).toHaveLength(0);
  });

  it("refuses an expired state and an exchange code older than 60 seconds", async () => {
    oidc.user = { sub: "alice-sub", email: "alice@example.com", email_verified: true };
    const begin = await h.call("/api/v1/auth/oauth/oidc/keycloak", { token: "" });
    const back = new URL((await fetch(begin.headers.get("location")!, { redirect: "manual" })).headers.get("location")!);
    offsetMs = 11 * 60_000;
    await expectRefused(await h.call(back.pathname + back.search, fromSameBrowser(begin, { token: "" })), 400, /OAuth state expired/);
    offsetMs = 0;
    const { res } = await signIn("/api/v1/auth/oauth/oidc/keycloak");
    expect(res.status).toBe(302);
    offsetMs = 61_000;
    await expectRefused(await h.call(`/api/v1/auth/exchange?code=${authCodeOf(res)}`, { token: "" }), 400, /Invalid or expired auth code/);
    expect(await h.t.sql`select 1 from auth_exchange_codes`).toHaveLength(0);
  });

  it("JWKS rotated mid-session: the new kid is fetched and accepted, a key removed from the JWKS is refused", async () => {
    oidc.user = { sub: "alice-sub", email: "alice@example.com", email_verified: true };
    expect((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res.status).toBe(302); // caches the JWKS
    const fetches = oidc.jwksFetches;
    const { oldKid } = await oidc.rotate(true);
    offsetMs = 31_000; // past the cooldown between two fetches for an unknown kid
    expect((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res.status).toBe(302);
    expect(oidc.jwksFetches).toBe(fetches + 1);
    oidc.faults.signWith = oldKid;
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 400, /not signed by a key the provider publishes/);
  });

  it("a key withdrawn from the JWKS stops verifying once the set's max-age is over; the set is kept until then", async () => {
    oidc.user = { sub: "alice-sub", email: "alice@example.com", email_verified: true };
    oidc.jwksCacheControl = "public, max-age=600";
    offsetMs = 60 * 60_000; // past any earlier set's lifetime: the next sign-in fetches it
    const fetches = oidc.jwksFetches;
    expect((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res.status).toBe(302);
    expect(oidc.jwksFetches).toBe(fetches + 1);
    const { oldKid } = await oidc.rotate(true);
    oidc.faults.signWith = oldKid; // the provider withdrew it; a stolen copy still signs
    offsetMs += 9 * 60_000;
    // Within max-age the cached set still has the key: no fetch.
    expect((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res.status).toBe(302);
    expect(oidc.jwksFetches).toBe(fetches + 1);
    offsetMs += 2 * 60_000;
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 400, /not signed by a key the provider publishes/);
    expect(oidc.jwksFetches).toBe(fetches + 2);
    oidc.faults.signWith = null;
    expect((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res.status).toBe(302);
  });

  it("an unknown kid refetches the set at most once per cooldown", async () => {
    oidc.user = { sub: "alice-sub", email: "alice@example.com", email_verified: true };
    offsetMs = 3 * 60 * 60_000;
    expect((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res.status).toBe(302); // fetched now
    const fetches = oidc.jwksFetches;
    await oidc.rotate(false); // a new signing key, published
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 400, /not signed by a key the provider publishes/);
    expect(oidc.jwksFetches).toBe(fetches);
    offsetMs += 31_000;
    expect((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res.status).toBe(302);
    expect(oidc.jwksFetches).toBe(fetches + 1);
  });

  it("an ID token without the e-mail: UserInfo is asked, and refused when it answers for another subject", async () => {
    oidc.user = { sub: "alice-sub", email: "alice@example.com", email_verified: true };
    oidc.faults.bareIdToken = true;
    const asked = oidc.userinfoRequests;
    expect((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res.status).toBe(302);
    expect(oidc.userinfoRequests).toBe(asked + 1);
    oidc.user = { sub: "ursula-sub", email: "ursula@example.com", email_verified: false };
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 400, /not verified the e-mail/);
    oidc.user = { sub: "ursula-sub", email: "ursula@example.com", email_verified: true };
    oidc.faults.userinfoSub = "someone-else";
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 400, /UserInfo answer is for another subject/);
    expect(await h.t.sql`select 1 from users where email = 'ursula@example.com'`).toHaveLength(0);
  });

  it("refuses an unknown identity whose e-mail is an existing account (no take-over), and a deactivated user", async () => {
    oidc.user = { sub: "intruder", email: "viewer@example.com", email_verified: true };
    const before = await countSessions();
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 403, /Signing in through Keycloak was refused/);
    await h.t.sql`update users set is_active = false where email = 'alice@example.com'`;
    oidc.user = { sub: "alice-sub", email: "alice@example.com", email_verified: true };
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 403, /deactivated/);
    await h.t.sql`update users set is_active = true where email = 'alice@example.com'`;
    expect(await countSessions()).toBe(before);
  });

  it("an MFA user gets the challenge token instead of a session", async () => {
    await h.t.sql`update users set mfa_enabled = true where email = 'alice@example.com'`;
    oidc.user = { sub: "alice-sub", email: "alice@example.com", email_verified: true };
    const before = await countSessions();
    const { res } = await signIn("/api/v1/auth/oauth/oidc/keycloak");
    await h.t.sql`update users set mfa_enabled = false where email = 'alice@example.com'`;
    expect(res.status).toBe(302);
    expect(res.headers.get("set-cookie")).not.toMatch(/svc_session=/);
    const to = new URL(res.headers.get("location")!);
    expect(to.searchParams.get("cb_auth_code")).toBeNull();
    expect(to.searchParams.get("cb_mfa_token")).toBeTruthy();
    expect(await countSessions()).toBe(before);
  });
});

describe("the sign-in is bound to the browser that started it", () => {
  it("start sets an HttpOnly, SameSite=Lax state cookie; a callback without it, or with another, is refused and leaves the request unused", async () => {
    oidc.user = { sub: "alice-sub", email: "alice@example.com", email_verified: true };
    const begin = await h.call("/api/v1/auth/oauth/oidc/keycloak", { token: "" });
    const cookie = begin.headers.getSetCookie().find((c) => c.startsWith("svc_oauth_state="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth\/oauth(;|$)/);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie.split(";")[0]).toBe(`svc_oauth_state=${new URL(begin.headers.get("location")!).searchParams.get("state")}`);
    const back = new URL((await fetch(begin.headers.get("location")!, { redirect: "manual" })).headers.get("location")!);
    const callback = back.pathname + back.search;
    // Another browser (the attacker's link in a victim's): no cookie, or the attacker's own.
    await expectRefused(await h.call(callback, { token: "" }), 400, /not started in this browser/);
    const other = await h.call("/api/v1/auth/oauth/oidc/keycloak", { token: "" });
    await expectRefused(await h.call(callback, fromSameBrowser(other, { token: "" })), 400, /not started in this browser/);
    const [audit] = await h.t.sql`select diff from audit_log where action = 'login.oauth_refused' order by id desc limit 1`;
    expect(audit!.diff).toMatchObject({ reason: "state cookie missing or different" });
    // The starter's browser still finishes it, and the cookie is cleared.
    const res = await h.call(callback, fromSameBrowser(begin, { token: "" }));
    expect(res.status, await res.clone().text()).toBe(302);
    expect(res.headers.getSetCookie().find((c) => c.startsWith("svc_oauth_state="))).toMatch(/Max-Age=0/);
  });

  it("a link request finished in another browser binds nothing", async () => {
    const res = await h.call("/api/v1/account/oauth/keycloak/link", { method: "POST", token: h.viewerToken });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().find((c) => c.startsWith("svc_oauth_state="))).toMatch(/HttpOnly/i);
    oidc.user = { sub: "victim-sub", email: "victim@example.com", email_verified: true };
    const back = new URL((await fetch((await res.json()).authorization_url, { redirect: "manual" })).headers.get("location")!);
    await expectRefused(await h.call(back.pathname + back.search, { token: "" }), 400, /not started in this browser/);
    expect(await h.t.sql`select 1 from oauth_identities where subject = 'victim-sub'`).toHaveLength(0);
  });
});

describe("no account enumeration (issue 36 item 5)", () => {
  const SMTP_HOST = "127.0.0.96";
  let catcher: MailCatcher | undefined;
  let mails: CaughtMail[] = [];

  beforeAll(async () => {
    catcher = await startMailCatcher(SMTP_HOST);
    const port = catcher.port;
    mails = catcher.mails;
    const res = await h.call("/api/v1/settings/smtp", {
      method: "PATCH",
      ...json({ smtp_enabled: true, smtp_host: SMTP_HOST, smtp_port: port, smtp_from_email: "cb@example.test", smtp_verify_tls: false }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  });
  afterAll(async () => catcher?.close());

  /** Waits (bounded) until `n` mails arrived. */
  async function mailsArrived(n: number): Promise<void> {
    for (let i = 0; i < 200 && mails.length < n; i++) await new Promise((r) => setTimeout(r, 25));
  }

  it("an identity with an existing account's e-mail is answered like closed registration, and the owner is told by e-mail", async () => {
    await h.call("/api/v1/settings/oauth", { method: "PATCH", ...json({ providers: { keycloak: { allow_registration: false } } }) });
    try {
      oidc.user = { sub: "stranger-sub", email: "nobody-here@example.com", email_verified: true };
      const closed = (await signIn("/api/v1/auth/oauth/oidc/keycloak")).res;
      oidc.user = { sub: "impostor-sub", email: "viewer@example.com", email_verified: true };
      const taken = (await signIn("/api/v1/auth/oauth/oidc/keycloak")).res;
      expect(taken.status).toBe(closed.status);
      const [a, b] = [await closed.json(), await taken.json()];
      expect(b).toEqual(a);
      expect(a.detail).not.toMatch(/already registered|exists/i);
      // The audit (administrators only) keeps the real reasons.
      const reasons = await h.t
        .sql`select diff->>'reason' as reason from audit_log where action = 'login.oauth_refused' order by id desc limit 2`;
      expect(reasons.map((r) => r.reason)).toEqual(["e-mail already registered", "registration closed"]);
      await mailsArrived(1);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.to).toEqual(["viewer@example.com"]);
      expect(mails[0]!.data).toContain("sign-in attempt through Keycloak");
      expect(mails[0]!.data).toContain("not linked to your account");
    } finally {
      await h.call("/api/v1/settings/oauth", { method: "PATCH", ...json({ providers: { keycloak: { allow_registration: true } } }) });
    }
  });
});

describe("GitHub", () => {
  it("refuses an unknown account while registration through GitHub is off", async () => {
    await expectRefused((await signIn("/api/v1/auth/oauth/github")).res, 403, /Signing in through GitHub was refused/);
  });

  it("full flow with PKCE and the primary verified e-mail from /user/emails", async () => {
    await h.call("/api/v1/settings/oauth", { method: "PATCH", ...json({ providers: { github: { allow_registration: true } } }) });
    const { res } = await signIn("/api/v1/auth/oauth/github");
    expect(res.status, await res.clone().text()).toBe(302);
    const { token } = await (await h.call(`/api/v1/auth/exchange?code=${authCodeOf(res)}`, { token: "" })).json();
    expect(await (await h.call("/api/v1/auth/me", { token })).json()).toMatchObject({ email: "octocat@example.com", role: "viewer" });
    const [identity] = await h.t.sql`select issuer, subject from oauth_identities where provider = 'github'`;
    expect(identity).toEqual({ issuer: gh.url, subject: "583231" });
  });

  it("refuses an account whose e-mail GitHub has not verified", async () => {
    gh.state.unverified = true;
    await h.t.sql`delete from oauth_identities where provider = 'github'`;
    await h.t.sql`delete from users where email = 'octocat@example.com'`;
    await expectRefused((await signIn("/api/v1/auth/oauth/github")).res, 400, /verified e-mail/);
  });

  it("a provider that is not enabled or not configured is a 400", async () => {
    await expectRefused(await h.call("/api/v1/auth/oauth/google", { token: "" }), 400, /OAuth provider 'google' not enabled/);
    await expectRefused(await h.call("/api/v1/auth/oauth/oidc/nobody", { token: "" }), 400, /OIDC provider 'nobody' not configured/);
    await expectRefused(await h.call("/api/v1/auth/oauth/oidc/github", { token: "" }), 400, /not configured/);
  });
});

describe("linking", () => {
  /** POST .../link as `token`, then through the provider to the callback. */
  async function link(token: string): Promise<Response> {
    const res = await h.call("/api/v1/account/oauth/keycloak/link", { method: "POST", token });
    expect(res.status, await res.clone().text()).toBe(200);
    const { authorization_url } = await res.json();
    const back = new URL((await fetch(authorization_url, { redirect: "manual" })).headers.get("location")!);
    return h.call(back.pathname + back.search, fromSameBrowser(res, { token: "" }));
  }

  it("a signed-in user links a provider account explicitly, then signs in with it; another user cannot take it", async () => {
    oidc.user = { sub: "admin-sub", email: "admin@example.com", email_verified: true };
    // Before linking, the same e-mail is refused (no silent take-over).
    await expectRefused((await signIn("/api/v1/auth/oauth/oidc/keycloak")).res, 403, /Signing in through Keycloak was refused/);
    const linked = await link(h.adminToken);
    expect(linked.status, await linked.clone().text()).toBe(302);
    expect(linked.headers.get("location")).toBe(`${BASE}/?oauth_linked=keycloak`);
    expect(linked.headers.get("set-cookie")).not.toMatch(/svc_session=/);
    const mine = await (await h.call("/api/v1/account/oauth-identities")).json();
    expect(mine).toMatchObject([{ provider: "keycloak", issuer: oidc.issuer, subject: "admin-sub", email: "admin@example.com" }]);
    const { res } = await signIn("/api/v1/auth/oauth/oidc/keycloak");
    const { token } = await (await h.call(`/api/v1/auth/exchange?code=${authCodeOf(res)}`, { token: "" })).json();
    expect((await (await h.call("/api/v1/auth/me", { token })).json()).id).toBe(h.adminId);
    await expectRefused(await link(h.viewerToken), 409, /already linked to another user/);
    expect(await (await h.call("/api/v1/account/oauth-identities", { token: h.viewerToken })).json()).toEqual([]);
  });

  it("an administrator lists and removes a user's links; a user cannot remove another's; audited", async () => {
    const [row] = await (await h.call(`/api/v1/admin/users/${h.adminId}/oauth-identities`)).json();
    expect(row.subject).toBe("admin-sub");
    expect((await h.call(`/api/v1/admin/users/${h.adminId}/oauth-identities`, { token: h.viewerToken })).status).toBe(403);
    expect((await h.call(`/api/v1/account/oauth-identities/${row.id}`, { method: "DELETE", token: h.viewerToken })).status).toBe(404);
    expect((await h.call(`/api/v1/admin/users/99999/oauth-identities`)).status).toBe(404);
    const del = await h.call(`/api/v1/admin/users/${h.adminId}/oauth-identities/${row.id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await (await h.call("/api/v1/account/oauth-identities")).json()).toEqual([]);
    const audit = await h.t.sql`select action from audit_log where action like 'user.oauth_%' order by id`;
    expect(audit.map((a) => a.action)).toEqual(["user.oauth_linked", "user.oauth_unlinked"]);
  });
});

describe("invites", () => {
  const invite = async (email: string) => {
    const res = await h.call("/api/v1/admin/invites", { method: "POST", ...json({ email, role: "editor" }) });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()).token as string;
  };
  const setRegistration = (on: boolean) =>
    h.call("/api/v1/settings/oauth", { method: "PATCH", ...json({ providers: { keycloak: { allow_registration: on } } }) });

  it("an invite carried through the sign-in gives its role even with registration off, once; another e-mail is refused", async () => {
    await setRegistration(false);
    try {
      const token = await invite("dave@example.com");
      oidc.user = { sub: "dave-sub", email: "dave@example.com", email_verified: true };
      const { res } = await signIn(`/api/v1/auth/oauth/oidc/keycloak?invite_token=${encodeURIComponent(token)}`);
      expect(res.status, await res.clone().text()).toBe(302);
      const { token: session } = await (await h.call(`/api/v1/auth/exchange?code=${authCodeOf(res)}`, { token: "" })).json();
      expect(await (await h.call("/api/v1/auth/me", { token: session })).json()).toMatchObject({
        email: "dave@example.com",
        role: "editor",
      });
      const [row] = await h.t.sql`select accepted_at from invites where email = 'dave@example.com'`;
      expect(row!.accepted_at).not.toBeNull();

      const other = await invite("erin@example.com");
      oidc.user = { sub: "frank-sub", email: "frank@example.com", email_verified: true };
      await expectRefused(
        (await signIn(`/api/v1/auth/oauth/oidc/keycloak?invite_token=${encodeURIComponent(other)}`)).res,
        403,
        /invite is for another e-mail/,
      );
      oidc.user = { sub: "erin-sub", email: "erin@example.com", email_verified: true };
      await expectRefused(
        (await signIn(`/api/v1/auth/oauth/oidc/keycloak?invite_token=${encodeURIComponent(token)}`)).res,
        401,
        /invite is invalid/,
      );
      expect(await h.t.sql`select 1 from users where email in ('frank@example.com', 'erin@example.com')`).toHaveLength(0);
    } finally {
      await setRegistration(true);
    }
  });
});
