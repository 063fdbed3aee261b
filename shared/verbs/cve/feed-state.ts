// The CVE feed's state (table cve_feed_state, one row) and how GET /cve/status reads it: unavailable
// (never completed, or no entries), incomplete (the last attempt failed after the last success, or the
// last sync did not read every source), stale (the last success is older than STALE_AFTER_S), else ready.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { cveEntries, cveFeedState } from "../../db/schema/index.ts";

/** A feed older than a week answers "stale" (NVD changes daily; a week covers a missed weekend and more). */
export const STALE_AFTER_S = 7 * 24 * 3600;

export type FeedStateName = "unavailable" | "incomplete" | "ready" | "stale";

export type FeedStateRow = typeof cveFeedState.$inferSelect;

export interface FeedState {
  state: FeedStateName;
  generation: number;
  completed_at: string | null;
  age_seconds: number | null;
  total_records: number;
  coverage_complete: boolean;
  last_attempt_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
}

export async function readFeedRow(db: Db): Promise<FeedStateRow | undefined> {
  const [row] = await db.select().from(cveFeedState).where(eq(cveFeedState.id, 1));
  return row;
}

export async function countEntries(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(cveEntries);
  return row?.n ?? 0;
}

export function feedState(row: FeedStateRow | undefined, total: number, now: Date): FeedState {
  const completed = row?.completed_at ?? null;
  const age = completed ? Math.max(0, Math.floor((now.getTime() - completed.getTime()) / 1000)) : null;
  const failedSince = !!row?.last_error && (!row.last_success_at || (row.last_attempt_at ?? 0) > row.last_success_at);
  let state: FeedStateName;
  if (!row || row.generation === 0 || total === 0) state = "unavailable";
  else if (failedSince || !row.coverage_complete) state = "incomplete";
  else if (age !== null && age > STALE_AFTER_S) state = "stale";
  else state = "ready";
  return {
    state,
    generation: row?.generation ?? 0,
    completed_at: completed?.toISOString() ?? null,
    age_seconds: age,
    total_records: total,
    coverage_complete: row?.coverage_complete ?? false,
    last_attempt_at: row?.last_attempt_at?.toISOString() ?? null,
    last_success_at: row?.last_success_at?.toISOString() ?? null,
    last_error: row?.last_error ?? null,
  };
}

export async function readFeedState(db: Db, now: Date): Promise<FeedState> {
  const [row, total] = await Promise.all([readFeedRow(db), countEntries(db)]);
  return feedState(row, total, now);
}
