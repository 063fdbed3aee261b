// The active profile is the rate_limit_profile setting; a change applies within the 5 s cache.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { REDIS_URL } from "../../helpers/env.ts";
import { clearOfMinuteBoundary, randomClientIp } from "../../unit/ratelimit/support.ts";
import { burst, count, testPeer } from "./support.ts";

const setProfile = (t: TestApp, profile: string) =>
  t.sql`insert into app_settings (key, value) values ('rate_limit_profile', ${t.sql.json(profile)})
        on conflict (key) do update set value = excluded.value, updated_at = now()`;

let db: TestApp;
let redis: TestApp;
beforeAll(async () => {
  db = await createTestApp({}, { peerAddress: testPeer });
  redis = await createTestApp({ REDIS_URL }, { peerAddress: testPeer });
  // Set before the first request, so the first read of the (5 s) cache already sees it.
  await setProfile(db, "strict");
  await setProfile(redis, "strict");
  if (redis.runtime.redis?.status !== "ready") await new Promise((r) => redis.runtime.redis?.once("ready", r));
});
afterAll(async () => {
  await db.close();
  await redis.close();
});
beforeEach(() => clearOfMinuteBoundary(12_000));

describe("rate_limit_profile", () => {
  it.each([
    ["database", () => db],
    ["redis", () => redis],
  ])("strict lowers the default category to 10 per minute (%s store)", async (_store, app) => {
    const { statuses, last } = await burst(app().app, 11, "/api/v1/tenants", { peer: randomClientIp() });
    expect(count(statuses.slice(0, 10), 410)).toBe(10);
    expect(last.status).toBe(429);
    expect(last.headers.get("ratelimit-limit")).toBe("10");
  });

  it("a change applies without a restart once the cache expires", async () => {
    await setProfile(db, "relaxed");
    await new Promise((r) => setTimeout(r, 5200));
    const { statuses } = await burst(db.app, 40, "/api/v1/tenants", { peer: randomClientIp() });
    expect(count(statuses, 410)).toBe(40);
  });
});
