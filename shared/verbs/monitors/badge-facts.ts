// What a monitor's public SVG badge says (docs/adr/0455): anyone may ask, and only a monitor made
// badge-public answers; any other id (private, missing, malformed) is the one 404 below, the same
// body whichever, so badges tell nobody which monitors exist. One small read per badge: the row, then
// the minute buckets (uptime) or the samples (response time, certificate) of one window.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import {
  type BadgeValue,
  CERT_CHECK_TYPES,
  certExpiryValue,
  responseTimeValue,
  statusValue,
  uptimeValue,
} from "../../domain/badges/badge-values.ts";
import { ApiError } from "../../errors.ts";
import type { BadgeKind, BadgePeriod } from "../../schemas/badges.ts";
import { defineRead } from "../verb.ts";
import { findMonitor } from "./monitor-row.ts";

export const BADGE_NOT_FOUND = "No such badge.";
const notFound = () => new ApiError("RESOURCE_NOT_FOUND", BADGE_NOT_FOUND);

const WINDOW_MINUTES: Record<BadgePeriod, number> = { "24h": 1440, "7d": 10_080, "30d": 43_200 };
const MAX_ID = 2_147_483_647;
const DAY_MS = 86_400_000;

export interface BadgeFacts extends BadgeValue {
  /** The left-hand text when the request names none: generic, never the monitor's name (it may be internal). */
  label: string;
}

export interface BadgeInput {
  /** The path's id as sent. */
  id: string;
  kind: BadgeKind;
  period: BadgePeriod;
}

const DEFAULT_LABELS: Record<BadgeKind, (period: BadgePeriod) => string> = {
  status: () => "status",
  uptime: (p) => `uptime ${p}`,
  "response-time": (p) => `response time ${p}`,
  "cert-expiry": () => "certificate",
};

export const monitorBadgeFacts = defineRead<BadgeInput, BadgeFacts>({ scope: "public" }, async (ctx, { id: raw, kind, period }) => {
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 0;
  const row = id > 0 && id <= MAX_ID ? await findMonitor(ctx.db, id) : undefined;
  if (!row?.badge_public) throw notFound();
  if (kind === "cert-expiry" && !CERT_CHECK_TYPES.includes(row.check_type)) throw notFound();
  const label = DEFAULT_LABELS[kind](period);
  if (kind === "status") return { label, ...statusValue(row.status, row.enabled) };
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - WINDOW_MINUTES[period] * 60_000).toISOString();
  if (kind === "uptime") {
    const [s] = await queryRows<{ up: number; total: number }>(
      ctx.db,
      sql`select coalesce(sum(up), 0)::int as up, coalesce(sum(total), 0)::int as total from monitor_uptime_minutes
          where monitor_id = ${id} and minute >= ${since}::timestamptz and minute <= ${now.toISOString()}::timestamptz`,
    );
    return { label, ...uptimeValue(s?.up ?? 0, s?.total ?? 0) };
  }
  if (kind === "response-time") {
    // Successful checks only: a failed check's time is mostly its timeout, not a response.
    const [s] = await queryRows<{ avg: number | null }>(
      ctx.db,
      sql`select avg(latency_ms)::float8 as avg from monitor_samples
          where monitor_id = ${id} and avail and latency_ms is not null and ts >= ${since}::timestamptz and ts <= ${now.toISOString()}::timestamptz`,
    );
    return { label, ...responseTimeValue(s?.avg ?? null) };
  }
  // The latest reading of the last 30 days, counted down by the days since it was taken.
  const [c] = await queryRows<{ days: number; ts: string }>(
    ctx.db,
    sql`select cert_days_remaining as days, ts from monitor_samples
        where monitor_id = ${id} and cert_days_remaining is not null and ts >= ${new Date(now.getTime() - 30 * DAY_MS).toISOString()}::timestamptz
          and ts <= ${now.toISOString()}::timestamptz
        order by ts desc limit 1`,
  );
  const days = c ? c.days - Math.floor((now.getTime() - new Date(c.ts).getTime()) / DAY_MS) : null;
  return { label, ...certExpiryValue(days) };
});
