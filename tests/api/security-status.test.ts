import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../shared/auth/password.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: "security-status-setup" });
});
afterAll(async () => t.close());

const status = async () => {
  const res = await t.app.request("/api/v1/security/status");
  expect(res.status).toBe(200);
  return res.json();
};

describe("security/status (public)", () => {
  it("before first run: auth off, no users, a warning; then a viewer alone does not turn auth on; an administrator does", async () => {
    const first = await status();
    expect(Object.keys(first).sort()).toEqual(["auth_enabled", "has_users", "warning"]);
    expect(first).toMatchObject({ auth_enabled: false, has_users: false });
    expect(first.warning).toMatch(/not set up/);

    const hash = await hashPassword("viewer password", { iterations: 1000 });
    await t.sql`insert into users (email, password_hash, role) values ('v@example.com', ${hash}, 'viewer')`;
    expect(await status()).toMatchObject({ auth_enabled: false, has_users: true });

    const init = await t.app.request("/api/v1/bootstrap/initialize", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com", password: "admin password for tests", setup_token: "security-status-setup" }),
    });
    expect(init.status).toBe(200);
    expect(await status()).toEqual({ auth_enabled: true, has_users: true, warning: null });
  });

  it("is a read only: a POST to it is not routed", async () => {
    const res = await t.app.request("/api/v1/security/status", { method: "POST" });
    expect([404, 405]).toContain(res.status);
  });
});
