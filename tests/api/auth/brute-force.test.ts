// Brute force against sign-in meets two defences: the auth rate limit (429 per client address, spec 8.1)
// and the account lockout (423 after repeated failures, whatever the address).
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";
import { clearOfMinuteBoundary } from "../../unit/ratelimit/support.ts";

let t: TestApp;
const victim = { email: "victim@example.com", password: "the real password 123" };
const login = (password: string, peer: string) =>
  t.app.request("/api/v1/auth/login", { method: "POST", ...json({ email: victim.email, password }, { "x-test-peer": peer }) });

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: "brute-force-setup" }, { peerAddress: (c: Context) => c.req.header("x-test-peer") });
  const init = await t.app.request("/api/v1/bootstrap/initialize", {
    method: "POST",
    ...json({ ...victim, setup_token: "brute-force-setup" }, { "x-test-peer": "10.0.0.1" }),
  });
  expect(init.status).toBe(200);
});
afterAll(async () => t.close());

describe("brute-force sign-in", () => {
  it("one address is rate limited after 5 attempts a minute (normal profile)", async () => {
    // The seven attempts must fall in one minute window: across a boundary the sliding window weighs
    // the five earlier hits at just under 5 and admits a sixth.
    await clearOfMinuteBoundary();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await login(`wrong guess ${i}`, "203.0.113.7")).status);
    expect(statuses.slice(0, 5).every((s) => s === 401 || s === 423)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const limited = await login("wrong again", "203.0.113.7");
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ error_code: "RATE_LIMITED" });
    // Moving to another sign-in route does not help: the auth category is one bucket per address.
    for (const path of ["/api/v1/auth/jwt/login", "/api/v1/auth/register"]) {
      const other = await t.app.request(path, {
        method: "POST",
        ...json({ email: victim.email, password: "wrong" }, { "x-test-peer": "203.0.113.7" }),
      });
      expect(other.status, path).toBe(429);
    }
  });

  it("the account is locked after 5 failures even when they come from many addresses", async () => {
    // The first test already spent 5 failures; the account is locked now: even the right password fails.
    const right = await login(victim.password, "198.51.100.9");
    expect(right.status).toBe(423);
    expect(await right.json()).toMatchObject({ error_code: "ACCOUNT_LOCKED" });
    const rows = await t.sql`select action from audit_log where action in ('login.failed', 'user.locked', 'login.locked') order by id`;
    expect(rows.map((r) => r.action)).toContain("user.locked");
    expect(rows.filter((r) => r.action === "login.failed").length).toBe(5);
  });
});
