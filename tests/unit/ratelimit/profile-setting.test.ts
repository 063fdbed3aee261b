// The active profile comes from app_settings through a 5 s cache (real PostgreSQL).
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../../shared/config.ts";
import { cachedProfileReader, readRateLimitProfile } from "../../../shared/ratelimit/profile-setting.ts";
import { type NodeDatabase, openDatabase } from "../../../runtime/database.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { drivenClock } from "./support.ts";

let testDb: TestDatabase;
let database: NodeDatabase;
let sql: postgres.Sql;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await openDatabase(parseConfig({ DATABASE_URL: testDb.url, DB_POOL_MAX: "2" }));
  sql = postgres(testDb.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await sql.end({ timeout: 1 });
  await database.provider.close();
  await testDb.drop();
});

const setProfile = (value: unknown) =>
  sql`insert into app_settings (key, value) values ('rate_limit_profile', ${sql.json(value as postgres.JSONValue)})
      on conflict (key) do update set value = excluded.value, updated_at = now()`;

describe("rate_limit_profile setting", () => {
  it("is normal without a row, the stored profile with one, normal for anything else", async () => {
    expect(await readRateLimitProfile(database.db)).toBe("normal");
    await setProfile("strict");
    expect(await readRateLimitProfile(database.db)).toBe("strict");
    await setProfile("lenient");
    expect(await readRateLimitProfile(database.db)).toBe("normal");
    await setProfile({ profile: "strict" });
    expect(await readRateLimitProfile(database.db)).toBe("normal");
    await sql`delete from app_settings where key = 'rate_limit_profile'`;
  });

  it("applies a change within the cache time, without a restart", async () => {
    const clock = drivenClock(Date.now());
    const profile = cachedProfileReader({ database: database.provider, clock, ttlMs: 5000 });
    expect(await profile()).toBe("normal");
    await setProfile("relaxed");
    clock.advance(4999);
    expect(await profile()).toBe("normal");
    clock.advance(1);
    expect(await profile()).toBe("relaxed");
  });

  it("concurrent callers share one read, and a failing read keeps the last known profile", async () => {
    const clock = drivenClock(Date.now());
    await setProfile("strict");
    let leases = 0;
    const counting = { ...database.provider, lease: () => (leases++, database.provider.lease()) };
    const profile = cachedProfileReader({ database: counting, clock });
    expect(await Promise.all([profile(), profile(), profile()])).toEqual(["strict", "strict", "strict"]);
    expect(leases).toBe(1);

    const broken = { ...database.provider, lease: () => ({ db: null as never, release: async () => {} }) };
    const failing = cachedProfileReader({ database: broken, clock });
    expect(await failing()).toBe("normal");
  });
});
