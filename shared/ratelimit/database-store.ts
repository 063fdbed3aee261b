// The rate-limit store over PostgreSQL (or PGlite), for deployments without Redis: table
// rate_limit_counters holds one fixed-window counter per (key, window start), and a hit weighs the
// previous window by how much of it still overlaps the sliding window, exactly like the Redis store's
// script (@upstash/ratelimit slidingWindow). Refused requests are not counted there either, so a client
// that waits Retry-After is admitted. The hits of concurrent requests go to the database together, as one
// statement (hitsStatement), which costs both sides far less than a statement each.
import { type SQL, sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import { type DatabaseAccess, type DbLease, queryRows } from "../db/database.ts";
import type { RateLimitStore, StoreHit } from "./limiter.ts";
import { LONGEST_WINDOW_MS } from "./policy.ts";

export interface DatabaseStoreOptions {
  database: DatabaseAccess;
  clock: Clock;
  /** Every this many hits (per process) old windows are deleted. */
  pruneEvery?: number;
  /** Counters older than this are pruned; at least twice the longest window of the policy. */
  retainMs?: number;
}

/** One hit as the statement sees it: the key's current and previous window starts and the previous one's weight. */
export interface CounterHit {
  key: string;
  current: string;
  previous: string;
  weight: number;
  limit: number;
}

type Row = { key: string; hits: number | null; prev_hits: number; seen_hits: number | null };

interface QueuedHit extends CounterHit {
  now: number;
  windowStart: number;
  windowMs: number;
  resolve(hit: StoreHit): void;
  reject(e: unknown): void;
}

/**
 * When a refused client is admitted again: the moment the weighted previous window plus the current
 * count drops below the limit, assuming it sends nothing meanwhile.
 */
export function admittedAgainAt(p: {
  now: number;
  windowStart: number;
  windowMs: number;
  limit: number;
  prev: number;
  current: number;
}): number {
  const { windowStart, windowMs, limit, prev, current } = p;
  if (current < limit && prev > 0) return windowStart + windowMs * (1 - (limit - current) / prev);
  // The current window alone fills the limit: it becomes the previous one and has to decay.
  return windowStart + windowMs + windowMs * (1 - limit / Math.max(current, limit));
}

/**
 * Hits on distinct keys (each with its own window and limit) as one statement, one answer row per key.
 * Each insert admits only while (weighted previous + current) < limit. On a conflict the existing row is
 * locked and the WHERE sees its latest count, so parallel hits on one key serialise on that row and never
 * under-count or over-admit. A statement may touch a row only once, hence distinct keys.
 */
export function hitsStatement(hits: readonly CounterHit[]): SQL {
  const rows = JSON.stringify(hits.map(({ key, current, previous, weight, limit }) => ({ key, current, previous, weight, lim: limit })));
  // Lookups by key are correlated subqueries, not joins: the planner counts 100 rows for json_to_recordset
  // and, joining, would hash a sequential scan of the whole table into every statement.
  return sql`with hit as (
        select h.key, h.current, h.weight, h.lim,
               coalesce((select hits from rate_limit_counters where key = h.key and window_start = h.previous), 0)::int as prev_hits
        from json_to_recordset(${rows}::text::json) as h(key text, current timestamptz, previous timestamptz, weight float8, lim int)
      ), admitted as (
        insert into rate_limit_counters as c (key, window_start, hits)
        -- In key order, so batches of other requests or processes lock shared rows in the same order: no deadlock.
        select key, current, 1 from hit where floor(prev_hits * weight) < lim order by key
        on conflict (key, window_start) do update set hits = c.hits + 1
        where exists (select from hit where hit.key = c.key and c.hits + floor(hit.prev_hits * hit.weight) < hit.lim)
        returning c.key, c.hits
      )
      select h.key, a.hits, h.prev_hits,
             (select hits from rate_limit_counters where key = h.key and window_start = h.current) as seen_hits
      from hit h left join admitted a on a.key = h.key`;
}

/** One hit as one statement (the benchmark's bare figure runs it). */
export function hitStatement(h: CounterHit): SQL {
  return hitsStatement([h]);
}

/**
 * The store counts hits in batches: while one statement is out, the hits of other requests queue, and
 * they all go as the next statement when it answers (so a store has at most one statement in flight). A
 * lone request waits for no timer: its hit goes at the end of its own task. Under load the batches grow
 * by themselves, about three hits per statement at 16 connections of the throughput benchmark. (A flush
 * per macrotask would add the 1 ms a zero timeout takes on Node to every lone write, and gathered fewer
 * hits; a microtask alone gathers nothing, as concurrent requests run in separate socket reads.)
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  readonly #database: DatabaseAccess;
  readonly #clock: Clock;
  readonly #pruneEvery: number;
  readonly #retainMs: number;
  #hits = 0;
  /** Hits waiting for a statement, in arrival order. */
  #queue: QueuedHit[] = [];
  /** A statement is out (or about to be): new hits wait for it to answer. */
  #sending = false;

  constructor(opts: DatabaseStoreOptions) {
    this.#database = opts.database;
    this.#clock = opts.clock;
    this.#pruneEvery = opts.pruneEvery ?? 100;
    this.#retainMs = Math.max(opts.retainMs ?? 0, 2 * LONGEST_WINDOW_MS);
  }

  hit(key: string, limit: number, windowMs: number): Promise<StoreHit> {
    const now = this.#clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    // Share of the previous window still inside the sliding window.
    const weight = 1 - (now - windowStart) / windowMs;
    const current = new Date(windowStart).toISOString();
    const previous = new Date(windowStart - windowMs).toISOString();
    return new Promise((resolve, reject) => {
      const hit: QueuedHit = { key, current, previous, weight, limit, now, windowStart, windowMs, resolve, reject };
      const lease = this.#database.lease();
      // On the edge the client belongs to one request, and workerd forbids it to serve another's hit.
      if (lease.perRequest) return void this.#send([hit], lease);
      this.#queue.push(hit);
      if (this.#sending) return;
      this.#sending = true;
      // Hits made in this same task (Promise.all) join this statement.
      queueMicrotask(() => void this.#sendQueued());
    });
  }

  /** Sends the queue as statements one after the other until it is empty. */
  async #sendQueued(): Promise<void> {
    while (this.#queue.length > 0) await this.#send(this.#nextBatch(), this.#database.lease());
    this.#sending = false;
  }

  /** The oldest queued hit of each key. A key's later hits wait for the next statement: one statement may touch a row only once. */
  #nextBatch(): QueuedHit[] {
    const keys = new Set<string>();
    const batch: QueuedHit[] = [];
    const rest: QueuedHit[] = [];
    for (const hit of this.#queue) {
      (keys.has(hit.key) ? rest : batch).push(hit);
      keys.add(hit.key);
    }
    this.#queue = rest;
    return batch;
  }

  /** Counts a batch of hits on distinct keys and settles each; never rejects. */
  async #send(batch: QueuedHit[], lease: DbLease): Promise<void> {
    let settle: (hit: QueuedHit) => void;
    try {
      const rows = await queryRows<Row>(lease.db, hitsStatement(batch));
      const before = this.#hits;
      this.#hits += batch.length;
      if (Math.floor(this.#hits / this.#pruneEvery) > Math.floor(before / this.#pruneEvery)) await this.#prune(lease.db, batch[0]!.now);
      const byKey = new Map(rows.map((r) => [r.key, r]));
      settle = (hit) => hit.resolve(answer(hit, byKey.get(hit.key)));
    } catch (e) {
      // The limiter serves these requests unchecked and reports the store degraded.
      settle = (hit) => hit.reject(e);
    }
    await lease.release();
    batch.forEach(settle);
  }

  async #prune(db: DbLease["db"], now: number): Promise<void> {
    const cutoff = new Date(now - this.#retainMs).toISOString();
    // A range walk of the window_start index (migration 0008), however many per-route keys there are.
    // Best effort: a failed prune is retried on a later hit and never fails the request.
    await queryRows(db, sql`delete from rate_limit_counters where window_start < ${cutoff}::timestamptz`).catch(() => {});
  }
}

function answer(hit: QueuedHit, row: Row | undefined): StoreHit {
  const { now, windowStart, windowMs, limit, weight } = hit;
  const prevHits = Number(row?.prev_hits ?? 0);
  const weightedPrev = Math.floor(prevHits * weight);
  if (row?.hits != null) {
    const hits = Number(row.hits);
    return { success: true, remaining: Math.max(0, limit - hits - weightedPrev), resetAt: windowStart + windowMs };
  }
  // Refused: the count seen by this statement's snapshot may lag a concurrent insert, but it was at
  // least (limit - weighted previous) when the row was checked.
  const seen = Math.max(Number(row?.seen_hits ?? 0), limit - weightedPrev);
  const resetAt = admittedAgainAt({ now, windowStart, windowMs, limit, prev: prevHits, current: seen });
  return { success: false, remaining: 0, resetAt: Math.max(resetAt, now) };
}
