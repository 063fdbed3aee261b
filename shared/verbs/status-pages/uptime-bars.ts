// The bars of a status page: `up` and `total` checks per UTC day for the last 90 days (the daily rollups,
// and the minute buckets for the days not rolled up yet) and per hour for the last 24 h (minute buckets),
// read for all the page's monitors at once and summed per item.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";

export const DAYS = 90;
export const HOURS = 24;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Counts {
  monitor_id: number;
  at: string;
  up: number;
  total: number;
}
export type Buckets = Map<number, Map<string, { up: number; total: number }>>;

function byMonitor(rows: Counts[]): Buckets {
  const out: Buckets = new Map();
  for (const r of rows) {
    let m = out.get(r.monitor_id);
    if (!m) out.set(r.monitor_id, (m = new Map()));
    m.set(r.at, { up: r.up, total: r.total });
  }
  return out;
}

/** The first UTC day of the 90 (today is the last), as YYYY-MM-DD. */
export const dayKeys = (now: Date): string[] =>
  Array.from({ length: DAYS }, (_, i) => new Date(Math.floor(now.getTime() / DAY) * DAY - (DAYS - 1 - i) * DAY).toISOString().slice(0, 10));
/** The 24 hour starts, the current (partial) hour last, as ISO instants. */
export const hourKeys = (now: Date): string[] =>
  Array.from({ length: HOURS }, (_, i) => new Date(Math.floor(now.getTime() / HOUR) * HOUR - (HOURS - 1 - i) * HOUR).toISOString());

export async function dailyCounts(db: Db, monitorIds: readonly number[], now: Date): Promise<Buckets> {
  if (monitorIds.length === 0) return new Map();
  const ids = `{${monitorIds.join(",")}}`;
  const first = dayKeys(now)[0]!;
  return byMonitor(
    await queryRows<Counts>(
      db,
      sql`with d as (
          select monitor_id, day, up, total from monitor_uptime_daily where monitor_id = any(${ids}::int[]) and day >= ${first}::date
        ),
        m as (
          select monitor_id, (minute at time zone 'UTC')::date as day, sum(up)::int as up, sum(total)::int as total
          from monitor_uptime_minutes where monitor_id = any(${ids}::int[]) and minute >= ${first}::date::timestamp at time zone 'UTC'
          group by 1, 2
        )
        select monitor_id, to_char(day, 'YYYY-MM-DD') as at, up, total from d
        union all
        select monitor_id, to_char(day, 'YYYY-MM-DD'), up, total from m
        where not exists (select 1 from d where d.monitor_id = m.monitor_id and d.day = m.day)`,
    ),
  );
}

export async function hourlyCounts(db: Db, monitorIds: readonly number[], now: Date): Promise<Buckets> {
  if (monitorIds.length === 0) return new Map();
  const ids = `{${monitorIds.join(",")}}`;
  return byMonitor(
    await queryRows<Counts>(
      db,
      sql`select monitor_id, to_char(date_trunc('hour', minute at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00.000"Z"') as at,
          sum(up)::int as up, sum(total)::int as total
        from monitor_uptime_minutes where monitor_id = any(${ids}::int[]) and minute >= ${hourKeys(now)[0]!}::timestamptz
        group by 1, 2`,
    ),
  );
}

/** One item's bar: the availability (%, one decimal) of each key over its monitors, null where none was checked. */
export function bar(buckets: Buckets, monitorIds: readonly number[], keys: readonly string[]): (number | null)[] {
  return keys.map((k) => {
    let up = 0;
    let total = 0;
    for (const id of monitorIds) {
      const c = buckets.get(id)?.get(k);
      if (c) {
        up += c.up;
        total += c.total;
      }
    }
    return total === 0 ? null : Math.round((up / total) * 1000) / 10;
  });
}

/** The availability over a whole bar's checks. */
export function overall(buckets: Buckets, monitorIds: readonly number[]): number | null {
  let up = 0;
  let total = 0;
  for (const id of monitorIds) for (const c of buckets.get(id)?.values() ?? []) (up += c.up), (total += c.total);
  return total === 0 ? null : Math.round((up / total) * 1000) / 10;
}
