// Rate limits through the whole app with the Redis store (REDIS_URL set), on the machine's Redis.
// Client addresses are random per run: the counters outlive the test in the one shared Redis.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { REDIS_URL } from "../../helpers/env.ts";
import { clearOfMinuteBoundary, randomClientIp } from "../../unit/ratelimit/support.ts";
import { burst, count, testPeer } from "./support.ts";

let t: TestApp;
let second: TestApp;
beforeAll(async () => {
  t = await createTestApp({ REDIS_URL }, { peerAddress: testPeer });
  second = await createTestApp({ REDIS_URL }, { peerAddress: testPeer });
  for (const x of [t, second]) {
    if (x.runtime.redis?.status !== "ready") await new Promise((r) => x.runtime.redis?.once("ready", r));
  }
});
afterAll(async () => {
  await t.close();
  await second.close();
});
beforeEach(() => clearOfMinuteBoundary());

describe("rate limits with the Redis store", () => {
  it("resolves to the Redis store when REDIS_URL is set, and writes no database counters", async () => {
    expect(t.runtime.deps.config.RATE_LIMIT_STORE).toBe("redis");
    await t.app.request("/api/v1/tenants", { method: "POST", headers: { "x-test-peer": randomClientIp() } });
    expect(await t.sql`select 1 from rate_limit_counters`).toHaveLength(0);
  });

  it("default category, normal profile: 30 requests, then 429 RATE_LIMITED with retry_after and Retry-After", async () => {
    const peer = randomClientIp();
    const { statuses, last } = await burst(t.app, 31, "/api/v1/tenants", { peer });
    expect(count(statuses.slice(0, 30), 410)).toBe(30);
    expect(last.status).toBe(429);
    const body = await last.json();
    expect(body).toMatchObject({ error_code: "RATE_LIMITED" });
    expect(body.retry_after).toBeGreaterThanOrEqual(1);
    expect(body.retry_after).toBeLessThanOrEqual(60);
    expect(last.headers.get("retry-after")).toBe(String(body.retry_after));
    expect(await t.runtime.redis!.keys(`cp:ratelimit:default:${peer}:POST /api/v1/tenants:*`)).toHaveLength(1);
  });

  it("two app instances on one Redis share a client's count", async () => {
    const peer = randomClientIp();
    const a = await burst(t.app, 15, "/api/v1/tenants", { peer });
    const b = await burst(second.app, 15, "/api/v1/tenants", { peer });
    expect(count([...a.statuses, ...b.statuses], 410)).toBe(30);
    expect((await t.app.request("/api/v1/tenants", { method: "POST", headers: { "x-test-peer": peer } })).status).toBe(429);
    expect((await second.app.request("/api/v1/tenants", { method: "POST", headers: { "x-test-peer": peer } })).status).toBe(429);
  });

  it("/api/v1/livez is never limited", async () => {
    const peer = randomClientIp();
    await burst(t.app, 31, "/api/v1/tenants", { peer });
    const { statuses } = await burst(t.app, 50, "/api/v1/livez", { method: "GET", peer });
    expect(count(statuses, 200)).toBe(50);
  });
});
