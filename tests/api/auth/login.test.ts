import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";
import { sessionCookies } from "../../helpers/session-cookies.ts";

let t: TestApp;
const admin = { email: "root@example.com", password: "a very long admin password" };

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: "setup-token-login-tests" });
  // Every app.request() comes from one client; the relaxed profile leaves room for this file's sign-ins.
  await t.sql`insert into app_settings (key, value) values ('rate_limit_profile', '"relaxed"')`;
  const res = await t.app.request("/api/v1/bootstrap/initialize", {
    method: "POST",
    ...json({ ...admin, setup_token: "setup-token-login-tests" }),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => t.close());

describe("login, sessions and CSRF", () => {
  it("wrong password is 401 with one message for both unknown email and bad password", async () => {
    const a = await t.app.request("/api/v1/auth/login", { method: "POST", ...json({ email: admin.email, password: "nope nope nope" }) });
    const b = await t.app.request("/api/v1/auth/login", {
      method: "POST",
      ...json({ email: "ghost@example.com", password: "nope nope nope" }),
    });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect((await a.json()).detail).toBe((await b.json()).detail);
  });

  it("the cookie session works and logout revokes it on the very next request", async () => {
    const res = await t.app.request("/api/v1/auth/login", { method: "POST", ...json(admin) });
    expect(res.status).toBe(200);
    const { cookie, csrf } = sessionCookies(res);
    expect((await t.app.request("/api/v1/auth/me", { headers: { cookie } })).status).toBe(200);
    // A cookie write without the CSRF header fails...
    const noCsrf = await t.app.request("/api/v1/auth/logout", { method: "POST", headers: { cookie } });
    expect(noCsrf.status).toBe(403);
    // ...and with it succeeds.
    const out = await t.app.request("/api/v1/auth/logout", { method: "POST", headers: { cookie, "x-csrf-token": csrf } });
    expect(out.status).toBe(200);
    expect((await t.app.request("/api/v1/auth/me", { headers: { cookie } })).status).toBe(401);
  });

  it("jwt/login accepts the OAuth2 form and gives a bearer token", async () => {
    const res = await t.app.request("/api/v1/auth/jwt/login", {
      method: "POST",
      body: new URLSearchParams({ username: admin.email, password: admin.password }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.token_type).toBe("bearer");
    const me = await t.app.request("/api/v1/auth/me", { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.status).toBe(200);
    // A bearer write needs no CSRF header.
    const out = await t.app.request("/api/v1/auth/jwt/logout", {
      method: "POST",
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(out.status).toBe(200);
    expect((await t.app.request("/api/v1/auth/me", { headers: { authorization: `Bearer ${body.access_token}` } })).status).toBe(401);
  });

  it("malformed JSON and a wrong content type are 422 with the body echoed", async () => {
    const bad = await t.app.request("/api/v1/auth/login", {
      method: "POST",
      body: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error_code: "VALIDATION_ERROR", body: "{nope" });
    const type = await t.app.request("/api/v1/auth/login", {
      method: "POST",
      body: JSON.stringify(admin),
      headers: { "content-type": "text/plain" },
    });
    expect(type.status).toBe(422);
    expect((await type.json()).detail[0].type).toBe("content_type");
  });

  it("a body over the limit is 413 in the envelope", async () => {
    const res = await t.app.request("/api/v1/auth/login", { method: "POST", ...json({ email: "a@b.c", password: "x".repeat(2_000_000) }) });
    expect(res.status).toBe(413);
    expect((await res.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("every login outcome is in the audit chain", async () => {
    const rows = await t.sql<{ action: string }[]>`select action from audit_log order by id`;
    const actions = rows.map((r) => r.action);
    expect(actions).toContain("login.failed");
    expect(actions).toContain("login");
    expect(actions).toContain("logout");
  });
});
