import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";
import { csrfHeaders, sessionCookies } from "../../helpers/session-cookies.ts";

let t: TestApp;
const SETUP = "setup-token-for-tests-123";
const admin = { email: "Admin@Example.com", password: "correct horse battery staple", display_name: "Ada" };

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP });
});
afterAll(async () => t.close());

describe("first run", () => {
  it("status says set-up is needed", async () => {
    expect(await (await t.app.request("/api/v1/bootstrap/status")).json()).toEqual({ bootstrapped: false, needs_bootstrap: true });
  });

  it("non-first-run routes answer 401 before an administrator exists", async () => {
    const res = await t.app.request("/api/v1/tenants-not-a-route");
    expect(res.status).toBe(404);
    // /auth/* is first-run territory: admitted with the first-run grant (the setup token), but there is no user yet.
    expect((await t.app.request("/api/v1/auth/me")).status).toBe(401);
    const me = await t.app.request("/api/v1/auth/me", { headers: { "x-setup-token": SETUP } });
    expect(me.status).toBe(404);
  });

  it("a wrong setup token is refused and audited", async () => {
    const res = await t.app.request("/api/v1/bootstrap/initialize", { method: "POST", ...json({ ...admin, setup_token: "wrong" }) });
    expect(res.status).toBe(403);
    const rows = await t.sql`select action from audit_log where action = 'bootstrap.denied'`;
    expect(rows.length).toBe(1);
  });

  it("a weak password is a 422 naming the field", async () => {
    const res = await t.app.request("/api/v1/bootstrap/initialize", {
      method: "POST",
      ...json({ ...admin, password: "short", setup_token: SETUP }),
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error_code).toBe("VALIDATION_ERROR");
    expect(body.fields).toHaveProperty("password");
  });

  it("initialize creates the admin and answers like a login", async () => {
    const res = await t.app.request("/api/v1/bootstrap/initialize", { method: "POST", ...json({ ...admin, setup_token: SETUP }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({ email: "admin@example.com", role: "admin", is_admin: true, mfa_enabled: false });
    expect(body.token.split(".").length).toBe(3);
    const cookies = res.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith("svc_session="))).toMatch(/HttpOnly/i);
    expect(cookies.find((c) => c.startsWith("svc_session="))).toMatch(/SameSite=Strict/i);
    expect(cookies.find((c) => c.startsWith("svc_csrf="))).not.toMatch(/HttpOnly/i);
    // The csrf_token is the svc_csrf cookie, bound to this session: a cookie write with it passes.
    const session = sessionCookies(res);
    expect(body.csrf_token).toBe(session.csrf);
    const write = await t.app.request("/api/v1/users/me", { method: "PATCH", ...json({ display_name: "Ada" }, csrfHeaders(session)) });
    expect(write.status).toBe(200);

    const me = await t.app.request("/api/v1/auth/me", { headers: { authorization: `Bearer ${body.token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe("admin@example.com");
  });

  it("cannot run again", async () => {
    const res = await t.app.request("/api/v1/bootstrap/initialize", { method: "POST", ...json({ ...admin, setup_token: SETUP }) });
    expect(res.status).toBe(409);
    expect(await (await t.app.request("/api/v1/bootstrap/status")).json()).toEqual({ bootstrapped: true, needs_bootstrap: false });
  });

  it("after first run a protected route needs a credential", async () => {
    const res = await t.app.request("/api/v1/auth/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/Bearer/);
  });
});
