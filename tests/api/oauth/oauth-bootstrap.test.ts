// First run through OpenID Connect: before any administrator exists, the provider sign-in creates the
// account (redirected to the OOBE page), and POST /bootstrap/initialize-oauth with the setup token
// makes it the administrator. The OIDC provider is the jose-built one on loopback (127.0.0.94 here).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";
import { fromSameBrowser } from "../../helpers/oauth-browser.ts";
import { type FakeOidc, startFakeOidc } from "../../helpers/oidc-fakes.ts";

const BASE = "http://first-run.example.test";
const SETUP = "oauth-first-run-setup-token";
let t: TestApp;
let oidc: FakeOidc;
let peer = 0;
let adminToken = "";
const call = (path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  headers.set("x-test-peer", `10.77.0.${++peer}`);
  return t.app.request(path, { ...init, headers });
};

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP, PUBLIC_URL: BASE }, { peerAddress: (c) => c.req.header("x-test-peer") });
  oidc = await startFakeOidc("127.0.0.94");
  // PATCH /settings/oauth is open before first run to the setup token's holder (spec 5.4).
  const res = await call("/api/v1/settings/oauth", {
    method: "PATCH",
    ...json(
      { providers: { corp: { issuer: oidc.issuer, client_id: oidc.clientId, client_secret: oidc.clientSecret, enabled: true } } },
      { "x-setup-token": SETUP },
    ),
  });
  expect(res.status, await res.clone().text()).toBe(200);
});
afterAll(async () => {
  await oidc?.close();
  await t?.close();
});

async function providerSignIn(): Promise<Response> {
  const begin = await call("/api/v1/auth/oauth/oidc/corp");
  expect(begin.status).toBe(302);
  const back = new URL((await fetch(begin.headers.get("location")!, { redirect: "manual" })).headers.get("location")!);
  expect(back.origin).toBe(BASE);
  return call(back.pathname + back.search, fromSameBrowser(begin));
}

describe("before first run (issue 36 item 1)", () => {
  const takeOver = {
    providers: { evil: { issuer: "http://127.0.0.1:9/", client_id: "x", enabled: true, allow_registration: true, default_role: "admin" } },
  };

  it("every route of the first-run grant needs the setup token; bootstrap/status does not", async () => {
    const patch = await call("/api/v1/settings/oauth", { method: "PATCH", ...json(takeOver) });
    expect(patch.status).toBe(401);
    expect((await patch.json()).detail).toMatch(/X-Setup-Token/);
    const wrong = await call("/api/v1/settings/oauth", { method: "PATCH", ...json(takeOver, { "x-setup-token": "not-the-token" }) });
    expect(wrong.status).toBe(403);
    expect(await t.sql`select 1 from audit_log where action = 'bootstrap.denied'`).toHaveLength(1);
    for (const [method, path] of [
      ["GET", "/api/v1/settings"],
      ["GET", "/api/v1/bootstrap/onboarding"],
      ["POST", "/api/v1/bootstrap/domain"],
      ["GET", "/api/v1/auth/me"],
    ] as const) {
      const res = await call(path, { method, ...(method === "POST" ? json({ public_url: "http://evil.example" }) : {}) });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    expect((await call("/api/v1/settings", { headers: { "x-setup-token": SETUP } })).status).toBe(200);
    expect((await call("/api/v1/bootstrap/status")).status).toBe(200);
    const [row] = await t.sql`select value from app_settings where key = 'oauth'`;
    expect(Object.keys((row!.value as { providers: object }).providers)).toEqual(["corp"]);
  });

  it("even with the setup token, registration and an administering default role are refused (422)", async () => {
    const res = await call("/api/v1/settings/oauth", { method: "PATCH", ...json(takeOver, { "x-setup-token": SETUP }) });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.fields).sort()).toEqual(["providers.evil.allow_registration", "providers.evil.default_role"].sort());
    const role = await call("/api/v1/settings/oauth", {
      method: "PATCH",
      ...json({ providers: { corp: { default_role: "admin" } } }, { "x-setup-token": SETUP }),
    });
    expect(role.status).toBe(422);
    const [row] = await t.sql`select value from app_settings where key = 'oauth'`;
    expect((row!.value as { providers: Record<string, { default_role: string }> }).providers.corp!.default_role).toBe("viewer");
  });
});

describe("POST /bootstrap/initialize-oauth", () => {
  it("the first provider account becomes the administrator, with the setup token", async () => {
    // A configuration stored before this fix by anyone who reached the install: open registration into admin.
    await t.sql`update app_settings set value = jsonb_set(jsonb_set(value, '{providers,corp,allow_registration}', 'true'), '{providers,corp,default_role}', '"admin"') where key = 'oauth'`;
    oidc.user = { sub: "founder", email: "founder@example.com", email_verified: true, name: "Founder" };
    const res = await providerSignIn();
    expect(res.status, await res.clone().text()).toBe(302);
    const to = new URL(res.headers.get("location")!);
    expect(to.pathname).toBe("/oobe");
    expect(to.searchParams.get("bootstrap")).toBe("1");
    expect(to.searchParams.get("provider")).toBe("corp");
    const ex = await call(`/api/v1/auth/exchange?code=${to.searchParams.get("cb_auth_code")}`);
    expect(ex.status).toBe(200);
    const { token: oauthToken } = await ex.json();
    // Not an administrator before the setup token says so, whatever the provider's default role.
    expect((await (await call("/api/v1/auth/me", { headers: { authorization: `Bearer ${oauthToken}` } })).json()).role).toBe("viewer");

    const wrong = await call("/api/v1/bootstrap/initialize-oauth", {
      method: "POST",
      ...json({ oauth_token: oauthToken, setup_token: "nope" }),
    });
    expect(wrong.status).toBe(403);
    const badToken = await call("/api/v1/bootstrap/initialize-oauth", {
      method: "POST",
      ...json({ oauth_token: "not.a.token", setup_token: SETUP }),
    });
    expect(badToken.status).toBe(400);
    expect((await badToken.json()).detail).toBe("OAuth token is invalid or expired");
    expect((await (await call("/api/v1/bootstrap/status")).json()).bootstrapped).toBe(false);

    const init = await call("/api/v1/bootstrap/initialize-oauth", {
      method: "POST",
      ...json({ oauth_token: oauthToken, setup_token: SETUP, theme_preset: "dark" }),
    });
    expect(init.status, await init.clone().text()).toBe(200);
    const body = await init.json();
    expect(body.user).toMatchObject({ email: "founder@example.com", role: "admin" });
    expect(init.headers.get("set-cookie")).toMatch(/svc_session=/);
    const me = await call("/api/v1/auth/me", { headers: { authorization: `Bearer ${body.token}` } });
    expect((await me.json()).role).toBe("admin");
    // The pre-bootstrap session is over.
    expect((await call("/api/v1/auth/me", { headers: { authorization: `Bearer ${oauthToken}` } })).status).toBe(401);
    const again = await call("/api/v1/bootstrap/initialize-oauth", {
      method: "POST",
      ...json({ oauth_token: body.token, setup_token: SETUP }),
    });
    expect(again.status).toBe(409);
    // First run closed the registration configured before it.
    const [row] = await t.sql`select value from app_settings where key = 'oauth'`;
    expect((row!.value as { providers: Record<string, { allow_registration: boolean }> }).providers.corp!.allow_registration).toBe(false);
    adminToken = body.token;
  });

  it("after first run, registration through the provider follows its setting again", async () => {
    oidc.user = { sub: "latecomer", email: "late@example.com", email_verified: true };
    const res = await providerSignIn();
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toMatch(/^Signing in through corp was refused/);
  });

  it("an administrator makes new provider users administrators only with the confirmation headers", async () => {
    const auth = { authorization: `Bearer ${adminToken}` };
    const admin = { providers: { corp: { allow_registration: true, default_role: "admin" } } };
    const plain = await call("/api/v1/settings/oauth", { method: "PATCH", ...json(admin, auth) });
    expect(plain.status).toBe(422);
    expect((await plain.json()).fields["providers.corp.default_role"]).toMatch(/x-svc-confirmation: oauth-admin-registration/);
    const badKey = await call("/api/v1/settings/oauth", {
      method: "PATCH",
      ...json(admin, { ...auth, "x-svc-confirmation": "oauth-admin-registration" }),
    });
    expect(badKey.status).toBe(428);
    const ok = await call("/api/v1/settings/oauth", {
      method: "PATCH",
      ...json(admin, { ...auth, "x-svc-confirmation": "oauth-admin-registration", "idempotency-key": "oauth-admin-reg-0001" }),
    });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect((await ok.json()).providers.corp).toMatchObject({ allow_registration: true, default_role: "admin" });
    // Other changes later need no new confirmation.
    expect(
      (await call("/api/v1/settings/oauth", { method: "PATCH", ...json({ providers: { corp: { label: "Corp" } } }, auth) })).status,
    ).toBe(200);
  });
});
