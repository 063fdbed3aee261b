// The database store against a real PostgreSQL database (cloned from the migrated template).
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../../shared/config.ts";
import { admittedAgainAt, DatabaseRateLimitStore } from "../../../shared/ratelimit/database-store.ts";
import { type NodeDatabase, openDatabase } from "../../../runtime/database.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { drivenClock } from "./support.ts";

const MIN = 60_000;
// A minute boundary far from now, so the driven clock decides every window.
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

let testDb: TestDatabase;
let database: NodeDatabase;
let sql: postgres.Sql;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await openDatabase(parseConfig({ DATABASE_URL: testDb.url, DB_POOL_MAX: "16" }));
  sql = postgres(testDb.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await sql.end({ timeout: 1 });
  await database.provider.close();
  await testDb.drop();
});

const store = (clock = drivenClock(T0), pruneEvery = 1_000_000) =>
  new DatabaseRateLimitStore({ database: database.provider, clock, pruneEvery });

async function countOf(key: string): Promise<number> {
  const rows = await sql<{ n: number }[]>`select coalesce(sum(hits), 0)::int as n from rate_limit_counters where key = ${key}`;
  return rows[0]!.n;
}

describe("database rate-limit store", () => {
  it("admits up to the limit, counts remaining down, then refuses without counting the refusals", async () => {
    const s = store();
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await s.hit("seq", 5, MIN));
    expect(results.map((r) => r.success)).toEqual([true, true, true, true, true, false, false, false]);
    expect(results.slice(0, 5).map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect(await countOf("seq")).toBe(5);
  });

  it("never under-counts or over-admits under many parallel hits on one key", async () => {
    const s = store();
    const results = await Promise.all(Array.from({ length: 200 }, () => s.hit("parallel-limited", 50, MIN)));
    expect(results.filter((r) => r.success)).toHaveLength(50);
    expect(await countOf("parallel-limited")).toBe(50);

    const all = await Promise.all(Array.from({ length: 200 }, () => s.hit("parallel-open", 1000, MIN)));
    expect(all.every((r) => r.success)).toBe(true);
    expect(await countOf("parallel-open")).toBe(200);
    // Every admitted hit saw a distinct count.
    expect(new Set(all.map((r) => r.remaining)).size).toBe(200);
  });

  it("slides: the previous window weighs by its remaining overlap", async () => {
    const clock = drivenClock(T0 + 10_000);
    const s = store(clock);
    for (let i = 0; i < 10; i++) expect((await s.hit("slide", 10, MIN)).success).toBe(true);
    expect((await s.hit("slide", 10, MIN)).success).toBe(false);
    // Half-way through the next window, floor(10 * 0.5) = 5 of the previous still count: 5 more fit.
    clock.set(T0 + MIN + 30_000);
    const next = [];
    for (let i = 0; i < 7; i++) next.push((await s.hit("slide", 10, MIN)).success);
    expect(next).toEqual([true, true, true, true, true, false, false]);
    // Two windows on, nothing of the first counts.
    clock.set(T0 + 3 * MIN);
    expect((await s.hit("slide", 10, MIN)).remaining).toBe(9);
  });

  it("tells a refused client when it will be admitted again, and it is", async () => {
    const clock = drivenClock(T0 + 15_000);
    const s = store(clock);
    for (let i = 0; i < 5; i++) await s.hit("retry", 5, MIN);
    const refused = await s.hit("retry", 5, MIN);
    expect(refused.success).toBe(false);
    // The current window alone is full: it has to become the previous one (at T0 + 1 min).
    expect(refused.resetAt).toBe(T0 + MIN);
    clock.set(refused.resetAt + 1);
    expect((await s.hit("retry", 5, MIN)).success).toBe(true);
  });

  it("computes the earliest admission while the previous window decays", () => {
    // 10 in the previous window, 2 in this one, limit 6, 30 s in: floor(10 * w) must drop below 4.
    const at = admittedAgainAt({ now: T0 + 30_000, windowStart: T0, windowMs: MIN, limit: 6, prev: 10, current: 2 });
    expect(at).toBe(T0 + 36_000);
    expect(Math.floor(10 * (1 - (at + 1 - T0) / MIN)) + 2).toBeLessThan(6);
  });

  it("keeps separate counters per key and per window length", async () => {
    const s = store();
    expect((await s.hit("a", 1, MIN)).success).toBe(true);
    expect((await s.hit("a", 1, MIN)).success).toBe(false);
    expect((await s.hit("b", 1, MIN)).success).toBe(true);
  });

  it("prunes counters older than twice the longest window, now and then", async () => {
    const clock = drivenClock(T0);
    await sql`insert into rate_limit_counters (key, window_start, hits) values
      ('old', ${new Date(T0 - 31 * MIN)}, 3), ('recent', ${new Date(T0 - 29 * MIN)}, 3)`;
    const s = store(clock, 3);
    await s.hit("p", 100, MIN);
    await s.hit("p", 100, MIN);
    expect(await countOf("old")).toBe(3);
    await s.hit("p", 100, MIN); // the third hit prunes
    expect(await countOf("old")).toBe(0);
    expect(await countOf("recent")).toBe(3);
  });
});
