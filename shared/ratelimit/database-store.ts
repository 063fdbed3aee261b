// The rate-limit store over PostgreSQL (or PGlite), for deployments without Redis: table
// rate_limit_counters holds one fixed-window counter per (key, window start), and a hit weighs the
// previous window by how much of it still overlaps the sliding window, exactly like the Redis store's
// script (@upstash/ratelimit slidingWindow). Refused requests are not counted there either, so a client
// that waits Retry-After is admitted.
import { type SQL, sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import { type DatabaseProvider, queryRows } from "../db/database.ts";
import type { RateLimitStore, StoreHit } from "./limiter.ts";
import { LONGEST_WINDOW_MS } from "./policy.ts";

export interface DatabaseStoreOptions {
  database: DatabaseProvider;
  clock: Clock;
  /** Every this many hits (per process) old windows are deleted. */
  pruneEvery?: number;
  /** Counters older than this are pruned; at least twice the longest window of the policy. */
  retainMs?: number;
}

type Row = { hits: number | null; prev_hits: number; seen_hits: number | null };

/**
 * When a refused client is admitted again: the moment the weighted previous window plus the current
 * count drops below the limit, assuming it sends nothing meanwhile.
 */
export function admittedAgainAt(p: { now: number; windowStart: number; windowMs: number; limit: number; prev: number; current: number }): number {
  const { windowStart, windowMs, limit, prev, current } = p;
  if (current < limit && prev > 0) return windowStart + windowMs * (1 - (limit - current) / prev);
  // The current window alone fills the limit: it becomes the previous one and has to decay.
  return windowStart + windowMs + windowMs * (1 - limit / Math.max(current, limit));
}

/**
 * One hit as one statement: the insert admits only while (weighted previous + current) < limit. On a
 * conflict the existing row is locked and the WHERE sees its latest count, so parallel hits on one key
 * serialise on that row and never under-count or over-admit. (Exported for the benchmark's bare figure.)
 */
export function hitStatement(h: { key: string; current: string; previous: string; weight: number; limit: number }): SQL {
  const { key, current, previous, weight, limit } = h;
  return sql`with prev as (
        select coalesce((select hits from rate_limit_counters
                         where key = ${key} and window_start = ${previous}::timestamptz), 0)::int as hits
      ), admitted as (
        insert into rate_limit_counters as c (key, window_start, hits)
        select ${key}, ${current}::timestamptz, 1 from prev
        where floor(prev.hits * ${weight}::float8) < ${limit}::int
        on conflict (key, window_start) do update set hits = c.hits + 1
        where c.hits + (select floor(prev.hits * ${weight}::float8) from prev) < ${limit}::int
        returning c.hits
      )
      select (select hits from admitted) as hits,
             (select hits from prev) as prev_hits,
             (select hits from rate_limit_counters
               where key = ${key} and window_start = ${current}::timestamptz) as seen_hits`;
}

export class DatabaseRateLimitStore implements RateLimitStore {
  readonly #database: DatabaseProvider;
  readonly #clock: Clock;
  readonly #pruneEvery: number;
  readonly #retainMs: number;
  #hits = 0;

  constructor(opts: DatabaseStoreOptions) {
    this.#database = opts.database;
    this.#clock = opts.clock;
    this.#pruneEvery = opts.pruneEvery ?? 100;
    this.#retainMs = Math.max(opts.retainMs ?? 0, 2 * LONGEST_WINDOW_MS);
  }

  async hit(key: string, limit: number, windowMs: number): Promise<StoreHit> {
    const now = this.#clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const previousStart = windowStart - windowMs;
    // Share of the previous window still inside the sliding window.
    const weight = 1 - (now - windowStart) / windowMs;
    const current = new Date(windowStart).toISOString();
    const previous = new Date(previousStart).toISOString();
    const lease = this.#database.lease();
    try {
      const [row] = await queryRows<Row>(lease.db, hitStatement({ key, current, previous, weight, limit }));
      if (++this.#hits % this.#pruneEvery === 0) await this.#prune(lease.db, now);
      const prevHits = Number(row?.prev_hits ?? 0);
      const weightedPrev = Math.floor(prevHits * weight);
      const windowEnd = windowStart + windowMs;
      if (row?.hits != null) {
        const hits = Number(row.hits);
        return { success: true, remaining: Math.max(0, limit - hits - weightedPrev), resetAt: windowEnd };
      }
      // Refused: the count seen by this statement's snapshot may lag a concurrent insert, but it was at
      // least (limit - weighted previous) when the row was checked.
      const seen = Math.max(Number(row?.seen_hits ?? 0), limit - weightedPrev);
      const resetAt = admittedAgainAt({ now, windowStart, windowMs, limit, prev: prevHits, current: seen });
      return { success: false, remaining: 0, resetAt: Math.max(resetAt, now) };
    } finally {
      await lease.release();
    }
  }

  async #prune(db: Parameters<typeof queryRows>[0], now: number): Promise<void> {
    const cutoff = new Date(now - this.#retainMs).toISOString();
    // A range walk of the window_start index (migration 0008), however many per-route keys there are.
    // Best effort: a failed prune is retried on a later hit and never fails the request.
    await queryRows(db, sql`delete from rate_limit_counters where window_start < ${cutoff}::timestamptz`).catch(() => {});
  }
}
