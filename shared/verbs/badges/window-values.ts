// The window badges' values over one or more monitors (docs/adr/0455, 0461): a monitor's badge asks for
// its own id, a status page item's for the monitors it stands for. Uptime sums the minute buckets of all
// of them (up / total checks); response time averages every successful check of the window (each check
// weighs the same, whichever monitor made it); the certificate is the soonest to expire.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { type BadgeValue, certExpiryValue, NO_DATA, responseTimeValue, uptimeValue } from "../../domain/badges/badge-values.ts";
import type { BadgeKind, BadgePeriod } from "../../schemas/badges.ts";

const WINDOW_MINUTES: Record<BadgePeriod, number> = { "24h": 1440, "7d": 10_080, "30d": 43_200 };
const DAY_MS = 86_400_000;

/** The left-hand text a badge has when the request names none. */
export const DEFAULT_LABELS: Record<BadgeKind, (period: BadgePeriod) => string> = {
  status: () => "status",
  uptime: (p) => `uptime ${p}`,
  "response-time": (p) => `response time ${p}`,
  "cert-expiry": () => "certificate",
};

export type WindowKind = Exclude<BadgeKind, "status">;

export async function windowBadgeValue(
  db: Db,
  monitorIds: readonly number[],
  kind: WindowKind,
  period: BadgePeriod,
  now: Date,
): Promise<BadgeValue> {
  if (monitorIds.length === 0) return NO_DATA;
  const ids = `{${monitorIds.join(",")}}`;
  const until = now.toISOString();
  const since = new Date(now.getTime() - WINDOW_MINUTES[period] * 60_000).toISOString();
  if (kind === "uptime") {
    const [s] = await queryRows<{ up: number; total: number }>(
      db,
      sql`select coalesce(sum(up), 0)::int as up, coalesce(sum(total), 0)::int as total from monitor_uptime_minutes
          where monitor_id = any(${ids}::int[]) and minute >= ${since}::timestamptz and minute <= ${until}::timestamptz`,
    );
    return uptimeValue(s?.up ?? 0, s?.total ?? 0);
  }
  if (kind === "response-time") {
    // Successful checks only: a failed check's time is mostly its timeout, not a response.
    const [s] = await queryRows<{ avg: number | null }>(
      db,
      sql`select avg(latency_ms)::float8 as avg from monitor_samples
          where monitor_id = any(${ids}::int[]) and avail and latency_ms is not null
            and ts >= ${since}::timestamptz and ts <= ${until}::timestamptz`,
    );
    return responseTimeValue(s?.avg ?? null);
  }
  // Each monitor's latest reading of the last 30 days, counted down by the days since it was taken; the fewest.
  const rows = await queryRows<{ days: number; ts: string }>(
    db,
    sql`select distinct on (monitor_id) cert_days_remaining as days, ts from monitor_samples
        where monitor_id = any(${ids}::int[]) and cert_days_remaining is not null
          and ts >= ${new Date(now.getTime() - 30 * DAY_MS).toISOString()}::timestamptz and ts <= ${until}::timestamptz
        order by monitor_id, ts desc`,
  );
  const left = rows.map((c) => c.days - Math.floor((now.getTime() - new Date(c.ts).getTime()) / DAY_MS));
  return certExpiryValue(left.length === 0 ? null : Math.min(...left));
}
