// The database store against a real PostgreSQL database (cloned from the migrated template).
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../../shared/config.ts";
import type { DatabaseAccess } from "../../../shared/db/database.ts";
import { admittedAgainAt, DatabaseRateLimitStore } from "../../../shared/ratelimit/database-store.ts";
import type { StoreHit } from "../../../shared/ratelimit/limiter.ts";
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

/** The real provider, counting the statements sent through it. */
function counting(provider: DatabaseAccess): DatabaseAccess & { statements: number } {
  const counted = {
    kind: provider.kind,
    statements: 0,
    lease: () => {
      const { db } = provider.lease();
      const execute: typeof db.execute = (query) => {
        counted.statements++;
        return db.execute(query);
      };
      return { db: Object.assign(Object.create(db) as typeof db, { execute }), release: async () => {} };
    },
    close: () => provider.close(),
  };
  return counted;
}

/** Counters as (key, window start, hits) rows. */
async function seed(rows: [string, number, number][]): Promise<void> {
  for (const [key, at, hits] of rows)
    await sql`insert into rate_limit_counters (key, window_start, hits) values (${key}, ${new Date(at)}, ${hits})`;
}

/** The same hits, each awaited before the next is made, so each goes alone. */
async function oneByOne<T>(n: number, hit: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await hit(i));
  return out;
}

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

  describe("hits of one turn, batched into one statement", () => {
    it("answers concurrent hits on distinct keys exactly as the same hits one by one", async () => {
      // 20 s into a window: the previous one weighs 2/3. (previous, current) counts, limit 8: admitted
      // with room, admitted into the last slot, refused by the previous window, refused by the current one.
      const clock = drivenClock(T0 + MIN + 20_000);
      const states: [number, number][] = [
        [0, 0],
        [3, 1],
        [9, 1],
        [15, 0],
        [0, 8],
        [9, 2],
        [1, 6],
      ];
      for (const family of ["together", "alone"])
        await seed(
          states.flatMap(([prev, cur], i): [string, number, number][] => [
            [`${family}-${i}`, T0, prev],
            [`${family}-${i}`, T0 + MIN, cur],
          ]),
        );
      const provider = counting(database.provider);
      const batched = new DatabaseRateLimitStore({ database: provider, clock, pruneEvery: 1_000_000 });
      const together = await Promise.all(states.map((_, i) => batched.hit(`together-${i}`, 8, MIN)));
      expect(provider.statements).toBe(1);
      const single = store(clock);
      const alone = await oneByOne(states.length, (i) => single.hit(`alone-${i}`, 8, MIN));
      expect(together).toEqual(alone);
      expect(together.map((r) => r.success)).toEqual([true, true, true, false, false, false, true]);
      expect(together[0]).toEqual({ success: true, remaining: 7, resetAt: T0 + 2 * MIN });
      // The current window alone is full: admitted again once it is the previous one and has decayed.
      expect(together[4]).toEqual({ success: false, remaining: 0, resetAt: T0 + 2 * MIN });
    });

    it("counts concurrent hits on one key in arrival order: exactly the limit admitted, the rest refused with when to retry", async () => {
      const clock = drivenClock(T0 + 15_000);
      const provider = counting(database.provider);
      const s = new DatabaseRateLimitStore({ database: provider, clock, pruneEvery: 1_000_000 });
      const results = await Promise.all(Array.from({ length: 8 }, () => s.hit("burst", 5, MIN)));
      expect(results).toEqual([
        ...[4, 3, 2, 1, 0].map((remaining) => ({ success: true, remaining, resetAt: T0 + MIN })),
        ...Array.from({ length: 3 }, () => ({ success: false, remaining: 0, resetAt: T0 + MIN })),
      ]);
      // One statement may touch a row only once: each hit on the key went in the statement after the previous one.
      expect(provider.statements).toBe(8);
      expect(await countOf("burst")).toBe(5);

      // With a previous window of 7 half-way through (weight 1/2, floor(3.5) = 3 count): 3 more fit of 6.
      clock.set(T0 + MIN + 30_000);
      await seed([
        ["burst-prev", T0, 7],
        ["burst-prev-alone", T0, 7],
      ]);
      const together = await Promise.all(Array.from({ length: 5 }, () => s.hit("burst-prev", 6, MIN)));
      const single = store(clock);
      const alone = await oneByOne(5, () => single.hit("burst-prev-alone", 6, MIN));
      expect(together).toEqual(alone);
      const resetAt = admittedAgainAt({ now: clock.now().getTime(), windowStart: T0 + MIN, windowMs: MIN, limit: 6, prev: 7, current: 3 });
      expect(together).toEqual([
        ...[2, 1, 0].map((remaining) => ({ success: true, remaining, resetAt: T0 + 2 * MIN })),
        ...Array.from({ length: 2 }, () => ({ success: false, remaining: 0, resetAt })),
      ]);
      expect(resetAt).toBeGreaterThan(clock.now().getTime());
    });

    it("mixes window lengths and limits in one batch, each hit counted in its own window", async () => {
      // 15 s into minute 40: the minute and 5-minute windows started at minute 40, the 15-minute one at 30.
      const clock = drivenClock(T0 + 40 * MIN + 15_000);
      const provider = counting(database.provider);
      const s = new DatabaseRateLimitStore({ database: provider, clock, pruneEvery: 1_000_000 });
      const hits: [string, number, number][] = [
        ["mix-minute", 2, MIN],
        ["mix-quarter", 2, 15 * MIN],
        ["mix-five", 9, 5 * MIN],
        ["mix-minute", 2, MIN],
        ["mix-quarter", 2, 15 * MIN],
        ["mix-minute", 2, MIN],
        ["mix-quarter", 2, 15 * MIN],
      ];
      const results = await Promise.all(hits.map(([key, limit, windowMs]) => s.hit(key, limit, windowMs)));
      expect(provider.statements).toBe(3);
      const of = (key: string) => results.filter((_, i) => hits[i]![0] === key);
      const twoThenRefused = (resetAt: number) => [
        { success: true, remaining: 1, resetAt },
        { success: true, remaining: 0, resetAt },
        { success: false, remaining: 0, resetAt },
      ];
      expect(of("mix-minute")).toEqual(twoThenRefused(T0 + 41 * MIN));
      expect(of("mix-quarter")).toEqual(twoThenRefused(T0 + 45 * MIN));
      expect(of("mix-five")).toEqual([{ success: true, remaining: 8, resetAt: T0 + 45 * MIN }]);
      const rows = await sql<{ key: string; window_start: Date; hits: number }[]>`
        select key, window_start, hits from rate_limit_counters where key like 'mix-%' order by key`;
      expect(rows.map((r) => [r.key, r.window_start.getTime(), r.hits])).toEqual([
        ["mix-five", T0 + 40 * MIN, 1],
        ["mix-minute", T0 + 40 * MIN, 2],
        ["mix-quarter", T0 + 30 * MIN, 2],
      ]);
    });

    it("rejects every hit of a failing statement, counts none of them, and carries on", async () => {
      const s = store();
      // A limit beyond PostgreSQL's integer fails the whole statement, which the other two hits share.
      const settled = await Promise.allSettled([s.hit("fails-a", 5, MIN), s.hit("fails-b", 5, MIN), s.hit("fails-c", 2 ** 31, MIN)]);
      expect(settled.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(await countOf("fails-a")).toBe(0);
      expect(await countOf("fails-b")).toBe(0);
      const next: StoreHit[] = await Promise.all([s.hit("fails-a", 5, MIN), s.hit("fails-b", 5, MIN)]);
      expect(next.map((r) => r.remaining)).toEqual([4, 4]);
    });

    it("prunes when a batch carries the count past a multiple of pruneEvery", async () => {
      await seed([["old-batch", T0 - 31 * MIN, 3]]);
      const s = store(drivenClock(T0), 3);
      await Promise.all([s.hit("pb-1", 100, MIN), s.hit("pb-2", 100, MIN)]);
      expect(await countOf("old-batch")).toBe(3);
      await Promise.all([s.hit("pb-1", 100, MIN), s.hit("pb-2", 100, MIN)]);
      expect(await countOf("old-batch")).toBe(0);
    });
  });
});
