// IntegrationMonitorRead rows: every integration's monitors (ordered by integration name, then monitor
// name, as the reference does) or one integration's. A native row mirrors one of our monitors, so its
// status, last check, latency and 7/30-day uptime are read from that monitor (and its minute buckets) at
// read time: they never go stale. A page is three queries whatever its size.
import { asc, eq, type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { integrationMonitors, integrations, monitors } from "../../../db/schema/index.ts";
import type { IntegrationMonitorShape } from "../../../schemas/integrations.ts";
import { pct } from "../../monitors/present.ts";
import { defineRead } from "../../verb.ts";
import { READ_INTEGRATIONS } from "../scopes.ts";
import { findIntegration } from "./integration-row.ts";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const DAY_MS = 86_400_000;

/** 7- and 30-day uptime of our monitors `ids` from their minute buckets. */
async function nativeUptime(db: Db, ids: number[], now: Date): Promise<Map<number, { d7: number | null; d30: number | null }>> {
  if (ids.length === 0) return new Map();
  const d7 = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const d30 = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const rows = await queryRows<{ monitor_id: number; up7: number; total7: number; up30: number; total30: number }>(
    db,
    sql`select monitor_id,
          coalesce(sum(up) filter (where minute >= ${d7}::timestamptz), 0)::int as up7, coalesce(sum(total) filter (where minute >= ${d7}::timestamptz), 0)::int as total7,
          coalesce(sum(up), 0)::int as up30, coalesce(sum(total), 0)::int as total30
        from monitor_uptime_minutes
        where monitor_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) and minute >= ${d30}::timestamptz and minute <= ${now.toISOString()}::timestamptz
        group by monitor_id`,
  );
  return new Map(rows.map((r) => [r.monitor_id, { d7: pct(r.up7, r.total7), d30: pct(r.up30, r.total30) }]));
}

/** The monitors matching `where`, presented. */
export async function readIntegrationMonitors(db: Db, where: SQL | undefined, now: Date): Promise<IntegrationMonitorShape[]> {
  const rows = await db
    .select({
      m: integrationMonitors,
      integration_name: integrations.name,
      own: {
        status: monitors.status,
        last_polled_at: monitors.last_polled_at,
        last_latency_ms: monitors.last_latency_ms,
        interval_secs: monitors.interval_secs,
      },
    })
    .from(integrationMonitors)
    .innerJoin(integrations, eq(integrations.id, integrationMonitors.integration_id))
    .leftJoin(monitors, eq(monitors.id, integrationMonitors.monitor_id))
    .where(where)
    .orderBy(asc(sql`lower(${integrations.name})`), asc(sql`lower(${integrationMonitors.name})`), asc(integrationMonitors.id));
  const uptime = await nativeUptime(
    db,
    rows.flatMap((r) => (r.m.is_native && r.m.monitor_id !== null ? [r.m.monitor_id] : [])),
    now,
  );
  return rows.map(({ m, integration_name, own }) => {
    const native = m.is_native && m.monitor_id !== null && own !== null;
    const u = native ? uptime.get(m.monitor_id!) : undefined;
    return {
      id: m.id,
      integration_id: m.integration_id,
      integration_name,
      external_id: m.external_id,
      name: m.name,
      url: m.url,
      status: native ? own!.status! : m.status,
      uptime_7d: native ? (u?.d7 ?? null) : m.uptime_7d,
      uptime_30d: native ? (u?.d30 ?? null) : m.uptime_30d,
      last_checked_at: iso(native ? own!.last_polled_at : m.last_checked_at),
      avg_response_ms: native ? own!.last_latency_ms : m.avg_response_ms,
      cert_expiry_days: m.cert_expiry_days,
      linked_hardware_id: m.linked_hardware_id,
      last_heartbeat_at: iso(native ? own!.last_polled_at : m.last_heartbeat_at),
      linked_service_id: m.linked_service_id,
      probe_type: m.probe_type,
      probe_target: m.probe_target,
      probe_port: m.probe_port,
      probe_interval_s: native ? own!.interval_secs! : m.probe_interval_s,
      is_native: m.is_native,
      monitor_id: m.monitor_id,
    };
  });
}

export const listAllIntegrationMonitors = defineRead({ scope: READ_INTEGRATIONS }, async (ctx) =>
  readIntegrationMonitors(ctx.db, undefined, ctx.clock.now()),
);

export const listIntegrationMonitors = defineRead({ scope: READ_INTEGRATIONS }, async (ctx, { id }: { id: number }) => {
  await findIntegration(ctx.db, id);
  return readIntegrationMonitors(ctx.db, eq(integrationMonitors.integration_id, id), ctx.clock.now());
});

/** One monitor row presented (after a write). */
export async function readIntegrationMonitor(db: Db, id: number, now: Date): Promise<IntegrationMonitorShape> {
  return (await readIntegrationMonitors(db, eq(integrationMonitors.id, id), now))[0]!;
}
