// The monitors' uptime lifecycle in the retention job: every whole UTC day of per-minute buckets
// (monitor_uptime_minutes) is summed into monitor_uptime_daily (up, total, observed minutes), and minute
// buckets older than MINUTE_BUCKET_DAYS are then deleted. A day is recomputed from its buckets, not
// added to, so a rerun (or a day that got late results) is exact; the walk starts a day before the
// newest rolled-up day, so a run that stopped part-way carries on. Each day is one statement.
import { sql } from "drizzle-orm";
import type { VerbContext } from "../verb-context.ts";
import { type BatchBudget, batchStatement, deleteInBatches } from "./batches.ts";

const DAY_MS = 86_400_000;
/** Minute buckets kept: the 30-day uptime reads them, with a margin. Older uptime reads the daily rows. */
export const MINUTE_BUCKET_DAYS = 35;

export interface MonitorUptimeCounts {
  days_rolled: number;
  daily_rows: number;
  minute_rows_deleted: number;
  complete: boolean;
}

const utcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

export async function rollupMonitorUptime(ctx: VerbContext, now: Date, rows: number, budget: BatchBudget): Promise<MonitorUptimeCounts> {
  const today = utcDay(now.getTime());
  const counts: MonitorUptimeCounts = { days_rolled: 0, daily_rows: 0, minute_rows_deleted: 0, complete: false };
  const span = await batchStatement<{ first: string | Date | null; rolled: string | Date | null }>(
    ctx,
    sql`select (select min(minute) from monitor_uptime_minutes) as first, (select max(day)::timestamptz from monitor_uptime_daily) as rolled`,
  );
  if (span?.first) {
    const first = utcDay(new Date(span.first).getTime());
    const resume = span.rolled ? utcDay(new Date(`${String(span.rolled).slice(0, 10)}T00:00:00Z`).getTime()) - DAY_MS : first;
    for (let day = Math.max(first, resume); day < today; day += DAY_MS) {
      if (!budget.take()) return counts;
      const from = new Date(day).toISOString();
      const to = new Date(day + DAY_MS).toISOString();
      const r = await batchStatement<{ n: number }>(
        ctx,
        sql`with agg as (
          select monitor_id, sum(up)::int as up, sum(total)::int as total, count(*)::int as minutes
          from monitor_uptime_minutes where minute >= ${from}::timestamptz and minute < ${to}::timestamptz group by monitor_id
        ), upserted as (
          insert into monitor_uptime_daily (monitor_id, day, up, total, minutes)
          select monitor_id, ${from.slice(0, 10)}::date, up, total, minutes from agg
          on conflict (monitor_id, day) do update set up = excluded.up, total = excluded.total, minutes = excluded.minutes
          returning 1
        ) select count(*)::int as n from upserted`,
      );
      counts.days_rolled++;
      counts.daily_rows += r?.n ?? 0;
    }
  }
  const cutoff = new Date(today - MINUTE_BUCKET_DAYS * DAY_MS).toISOString();
  const deleted = await deleteInBatches(
    ctx,
    { table: "monitor_uptime_minutes", key: "monitor_id, minute", ts: "minute", expired: sql`minute < ${cutoff}::timestamptz` },
    rows,
    budget,
  );
  counts.minute_rows_deleted = deleted.deleted;
  counts.complete = deleted.complete;
  return counts;
}
