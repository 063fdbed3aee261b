// Redis configured but down (a closed port): the limiter lets requests through (not 429, not 500) and
// health reports redis degraded while writes stay admitted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { closedPort } from "../../unit/ratelimit/support.ts";
import { burst, count, testPeer } from "./support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }, { peerAddress: testPeer });
});
afterAll(async () => t.close());

describe("Redis down", () => {
  it("requests are served, past the limit, promptly", async () => {
    const started = Date.now();
    const { statuses, last } = await burst(t.app, 40, "/api/v1/tenants", { peer: "203.0.113.50" });
    expect(count(statuses, 410)).toBe(40);
    expect(last.headers.get("ratelimit-limit")).toBeNull();
    const reads = await burst(t.app, 5, "/api/v1/does-not-exist", { method: "GET", peer: "203.0.113.50" });
    expect(reads.statuses).toEqual([404, 404, 404, 404, 404]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("readyz reports redis degraded, writes permitted", async () => {
    const res = await t.app.request("/api/v1/readyz");
    expect(await res.json()).toMatchObject({ health: "degraded", degraded: ["redis"], writes_permitted: true });
  });
});
