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
const call = (path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  headers.set("x-test-peer", `10.77.0.${++peer}`);
  return t.app.request(path, { ...init, headers });
};

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP, PUBLIC_URL: BASE }, { peerAddress: (c) => c.req.header("x-test-peer") });
  oidc = await startFakeOidc("127.0.0.94");
  // PATCH /settings/oauth is open before first run (spec 5.4).
  const res = await call("/api/v1/settings/oauth", {
    method: "PATCH",
    ...json({ providers: { corp: { issuer: oidc.issuer, client_id: oidc.clientId, client_secret: oidc.clientSecret, enabled: true } } }),
  });
  expect(res.status).toBe(200);
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

describe("POST /bootstrap/initialize-oauth", () => {
  it("the first provider account becomes the administrator, with the setup token", async () => {
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

    const wrong = await call("/api/v1/bootstrap/initialize-oauth", { method: "POST", ...json({ oauth_token: oauthToken, setup_token: "nope" }) });
    expect(wrong.status).toBe(403);
    const badToken = await call("/api/v1/bootstrap/initialize-oauth", { method: "POST", ...json({ oauth_token: "not.a.token", setup_token: SETUP }) });
    expect(badToken.status).toBe(400);
    expect((await badToken.json()).detail).toBe("OAuth token is invalid or expired");
    expect((await (await call("/api/v1/bootstrap/status")).json()).bootstrapped).toBe(false);

    const init = await call("/api/v1/bootstrap/initialize-oauth", { method: "POST", ...json({ oauth_token: oauthToken, setup_token: SETUP, theme_preset: "dark" }) });
    expect(init.status, await init.clone().text()).toBe(200);
    const body = await init.json();
    expect(body.user).toMatchObject({ email: "founder@example.com", role: "admin" });
    expect(init.headers.get("set-cookie")).toMatch(/svc_session=/);
    const me = await call("/api/v1/auth/me", { headers: { authorization: `Bearer ${body.token}` } });
    expect((await me.json()).role).toBe("admin");
    // The pre-bootstrap session is over.
    expect((await call("/api/v1/auth/me", { headers: { authorization: `Bearer ${oauthToken}` } })).status).toBe(401);
    const again = await call("/api/v1/bootstrap/initialize-oauth", { method: "POST", ...json({ oauth_token: body.token, setup_token: SETUP }) });
    expect(again.status).toBe(409);
  });

  it("after first run, registration through the provider follows its setting again", async () => {
    oidc.user = { sub: "latecomer", email: "late@example.com", email_verified: true };
    const res = await providerSignIn();
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toBe("Registration is currently closed");
  });
});
