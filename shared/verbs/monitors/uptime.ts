// GET /monitors/{id}/uptime: 24 h, 7 d and 30 d from the minute buckets (up / total checks, with coverage:
// observed = min(window, round(checks x interval / 60)) minutes); 365 d and total from the daily rollups
// for the days the retention job has rolled up plus the minute buckets after the last rolled day. One
// statement over at most ~43,200 bucket rows and ~365 daily rows, both read by their primary keys.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import type { UptimeShape } from "../../schemas/monitors.ts";
import { defineRead } from "../verb.ts";
import { requireMonitor } from "./monitor-row.ts";
import { pct } from "./present.ts";
import { READ_MONITORS } from "./scopes.ts";

const MIN = 60_000;
const WINDOWS = { "24h": 1440, "7d": 10_080, "30d": 43_200 } as const;

interface Sums {
  up_24h: number;
  total_24h: number;
  up_7d: number;
  total_7d: number;
  up_30d: number;
  total_30d: number;
  up_365d: number;
  total_365d: number;
  up_all: number;
  total_all: number;
}

export function coverage(checks: number, intervalSecs: number, windowMinutes: number) {
  const observed = Math.min(windowMinutes, Math.round((checks * intervalSecs) / 60));
  return { observed_minutes: observed, window_minutes: windowMinutes, pct: Math.round((observed / windowMinutes) * 1000) / 10 };
}

export const monitorUptime = defineRead<{ id: number }, UptimeShape>({ scope: READ_MONITORS }, async (ctx, { id }) => {
  const monitor = await requireMonitor(ctx.db, id);
  const now = ctx.clock.now();
  const at = (minutes: number) => new Date(now.getTime() - minutes * MIN).toISOString();
  const yearAgo = at(365 * 1440);
  const [s] = await queryRows<Sums>(
    ctx.db,
    sql`with rolled as (
          select coalesce((max(day) + 1)::timestamp at time zone 'UTC', '-infinity'::timestamptz) as after
          from monitor_uptime_daily where monitor_id = ${id}
        ),
        recent as (
          select
            coalesce(sum(up) filter (where minute >= ${at(WINDOWS["24h"])}::timestamptz), 0)::int as up_24h,
            coalesce(sum(total) filter (where minute >= ${at(WINDOWS["24h"])}::timestamptz), 0)::int as total_24h,
            coalesce(sum(up) filter (where minute >= ${at(WINDOWS["7d"])}::timestamptz), 0)::int as up_7d,
            coalesce(sum(total) filter (where minute >= ${at(WINDOWS["7d"])}::timestamptz), 0)::int as total_7d,
            coalesce(sum(up) filter (where minute >= ${at(WINDOWS["30d"])}::timestamptz), 0)::int as up_30d,
            coalesce(sum(total) filter (where minute >= ${at(WINDOWS["30d"])}::timestamptz), 0)::int as total_30d
          from monitor_uptime_minutes where monitor_id = ${id} and minute >= ${at(WINDOWS["30d"])}::timestamptz and minute <= ${now.toISOString()}::timestamptz
        ),
        unrolled as (
          select coalesce(sum(up) filter (where minute >= ${yearAgo}::timestamptz), 0)::int as up_365d,
                 coalesce(sum(total) filter (where minute >= ${yearAgo}::timestamptz), 0)::int as total_365d,
                 coalesce(sum(up), 0)::int as up_all, coalesce(sum(total), 0)::int as total_all
          from monitor_uptime_minutes where monitor_id = ${id} and minute >= (select after from rolled) and minute <= ${now.toISOString()}::timestamptz
        ),
        daily as (
          select coalesce(sum(up) filter (where day >= (${yearAgo}::timestamptz at time zone 'UTC')::date), 0)::int as up_365d,
                 coalesce(sum(total) filter (where day >= (${yearAgo}::timestamptz at time zone 'UTC')::date), 0)::int as total_365d,
                 coalesce(sum(up), 0)::int as up_all, coalesce(sum(total), 0)::int as total_all
          from monitor_uptime_daily where monitor_id = ${id}
        )
        select r.*, u.up_365d + d.up_365d as up_365d, u.total_365d + d.total_365d as total_365d,
               u.up_all + d.up_all as up_all, u.total_all + d.total_all as total_all
        from recent r, unrolled u, daily d`,
  );
  const sums = s!;
  return {
    pct_24h: pct(sums.up_24h, sums.total_24h),
    pct_7d: pct(sums.up_7d, sums.total_7d),
    pct_30d: pct(sums.up_30d, sums.total_30d),
    pct_365d: pct(sums.up_365d, sums.total_365d),
    pct_total: pct(sums.up_all, sums.total_all),
    last_polled_at: monitor.last_polled_at ? monitor.last_polled_at.toISOString() : null,
    coverage_24h: coverage(sums.total_24h, monitor.interval_secs, WINDOWS["24h"]),
    coverage_7d: coverage(sums.total_7d, monitor.interval_secs, WINDOWS["7d"]),
    coverage_30d: coverage(sums.total_30d, monitor.interval_secs, WINDOWS["30d"]),
  };
});
