// MonitorRead (spec/catalogue.tsv, group monitors): the row, its 24 h uptime from the minute buckets, its latest
// latency, and the probe block. A page is presented with two queries whatever its size.
import { inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { agents } from "../../db/schema/index.ts";
import { effectiveQuorum, isQuorumMonitor } from "../../domain/monitors/quorum.ts";
import type { MonitorReadShape } from "../../schemas/monitors.ts";
import type { MonitorRow } from "./monitor-row.ts";
import { listedOnPublishedPages } from "../status-pages/listed-monitors.ts";
import { type MemberSummary, memberSummaries } from "./groups/summary.ts";
import { presentConfig } from "./secrets.ts";
import { sourceOf } from "../../domain/monitors/check-types.ts";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const DAY_MS = 86_400_000;

/** Percent rounded to 1 decimal, or null with nothing observed. */
export const pct = (up: number, total: number) => (total > 0 ? Math.round((up / total) * 1000) / 10 : null);

/** Each monitor's uptime over the 24 h before `now`, from the minute buckets (null: no result in the window). */
export async function uptime24h(db: Db, ids: number[], now: Date): Promise<Map<number, number | null>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ monitor_id: number; up: number; total: number }>(
    db,
    sql`select monitor_id, sum(up)::int as up, sum(total)::int as total from monitor_uptime_minutes
        where monitor_id in ${sql`(${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`} and minute >= ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz and minute <= ${now.toISOString()}::timestamptz
        group by monitor_id`,
  );
  return new Map(rows.map((r) => [r.monitor_id, pct(r.up, r.total)]));
}

export async function agentNames(db: Db, ids: number[]): Promise<Map<number, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: agents.id, name: agents.name, hostname: agents.hostname }).from(agents).where(inArray(agents.id, ids));
  return new Map(rows.map((r) => [r.id, r.name ?? r.hostname]));
}

export function probeBlock(row: MonitorRow, names: Map<number, string | null>) {
  return {
    probe_agent_id: row.probe_agent_id,
    probe_mode: row.probe_agent_id == null ? ("server" as const) : ("agent" as const),
    probe_agent: row.probe_agent_id == null ? null : { id: row.probe_agent_id, name: names.get(row.probe_agent_id) ?? null },
    probe_execution_status: row.probe_execution_status,
    probe_execution_reason: row.probe_execution_reason,
    probe_last_dispatched_at: iso(row.probe_last_dispatched_at),
    probe_last_result_at: iso(row.probe_last_result_at),
  };
}

export function monitorShape(
  row: MonitorRow,
  uptime: number | null,
  names: Map<number, string | null>,
  members: MemberSummary | null = null,
  listed = false,
): MonitorReadShape {
  return {
    id: row.id,
    name: row.name,
    check_type: row.check_type,
    host: row.host,
    config: presentConfig(row.check_type, row.config),
    interval_secs: row.interval_secs,
    max_retries: row.max_retries,
    retry_interval_secs: row.retry_interval_secs,
    enabled: row.enabled,
    target_type: row.target_type,
    target_id: row.target_id,
    status: row.status as MonitorReadShape["status"],
    retries: row.retries,
    last_polled_at: iso(row.last_polled_at),
    last_status_change_at: iso(row.last_status_change_at),
    next_check_at: row.next_check_at.toISOString(),
    last_msg: row.last_msg,
    uptime_pct_24h: uptime,
    latency_ms: row.last_latency_ms,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...probeBlock(row, names),
    vantage_agent_ids: row.vantage_agent_ids,
    vantage_sidecar: row.vantage_sidecar,
    quorum: isQuorumMonitor(row) ? effectiveQuorum(row) : null,
    group_id: row.group_id,
    badge_public: row.badge_public,
    badge_listed: listed,
    members,
    // Only whether a push monitor has its token: the token is answered once, by create and rotate.
    ...(sourceOf(row.check_type) === "push" ? { push_token_set: row.push_token_hash != null } : {}),
  };
}

export async function presentMonitors(db: Db, rows: MonitorRow[], now: Date): Promise<MonitorReadShape[]> {
  const ids = rows.map((r) => r.id);
  const agentIds = [...new Set(rows.map((r) => r.probe_agent_id).filter((id): id is number => id != null))];
  const [uptimes, names, members, listed] = await Promise.all([
    uptime24h(db, ids, now),
    agentNames(db, agentIds),
    memberSummaries(db, rows),
    listedOnPublishedPages(db, ids),
  ]);
  return rows.map((r) => monitorShape(r, uptimes.get(r.id) ?? null, names, members.get(r.id) ?? null, listed.has(r.id)));
}

export async function presentMonitor(db: Db, row: MonitorRow, now: Date): Promise<MonitorReadShape> {
  return (await presentMonitors(db, [row], now))[0]!;
}
