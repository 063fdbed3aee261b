// GET /monitors (list envelope, default sort name), /monitors/{id} (with each vantage point's last
// result, docs/adr/0441) and /monitors/overview (MonitorRead plus
// the last 12 latencies oldest first and the last 20 events newest first, two more queries per page).
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { monitors } from "../../db/schema/index.ts";
import type { CheckType } from "../../domain/monitors/check-types.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { MonitorDetailShape, MonitorOverviewShape, MonitorReadShape } from "../../schemas/monitors.ts";
import { type ListPage, type ListSpec, listPage } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import type { VerbContext } from "../verb-context.ts";
import { type MonitorRow, requireMonitor } from "./monitor-row.ts";
import { presentMonitor, presentMonitors } from "./present.ts";
import { READ_MONITORS } from "./scopes.ts";
import { vantageResults } from "./vantage-read.ts";

const SPEC: ListSpec = {
  table: monitors,
  id: monitors.id,
  sortable: {
    name: sql`lower(${monitors.name})`,
    status: monitors.status,
    check_type: monitors.check_type,
    host: monitors.host,
    last_polled_at: monitors.last_polled_at,
    created_at: monitors.created_at,
    id: monitors.id,
  },
  search: [monitors.name, monitors.host],
};

export interface MonitorListInput extends ListParams {
  target_type?: string | undefined;
  target_id?: number | undefined;
  enabled?: boolean | undefined;
  status?: string | undefined;
  check_type?: CheckType | undefined;
  probe_agent_id?: number | undefined;
  group_id?: number | undefined;
}

const filters = (input: MonitorListInput) => [
  input.target_type !== undefined ? eq(monitors.target_type, input.target_type) : undefined,
  input.target_id !== undefined ? eq(monitors.target_id, input.target_id) : undefined,
  input.enabled !== undefined ? eq(monitors.enabled, input.enabled) : undefined,
  input.status !== undefined ? eq(monitors.status, input.status) : undefined,
  input.check_type !== undefined ? eq(monitors.check_type, input.check_type) : undefined,
  input.probe_agent_id !== undefined ? eq(monitors.probe_agent_id, input.probe_agent_id) : undefined,
  input.group_id !== undefined ? eq(monitors.group_id, input.group_id) : undefined,
];

export const listMonitors = defineRead<MonitorListInput, ListPage<MonitorReadShape>>({ scope: READ_MONITORS }, (ctx, input) =>
  listPage<MonitorRow, MonitorReadShape>(ctx.db, SPEC, input, filters(input), (rows) => presentMonitors(ctx.db, rows, ctx.clock.now())),
);

export const getMonitor = defineRead<{ id: number }, MonitorDetailShape>({ scope: READ_MONITORS }, async (ctx, { id }) => {
  const row = await requireMonitor(ctx.db, id);
  const now = ctx.clock.now();
  const [read, vantage_results] = await Promise.all([presentMonitor(ctx.db, row, now), vantageResults(ctx.db, row, now)]);
  return { ...read, vantage_results };
});

async function overviewOf(ctx: VerbContext, rows: MonitorRow[]): Promise<MonitorOverviewShape[]> {
  const reads = await presentMonitors(ctx.db, rows, ctx.clock.now());
  if (rows.length === 0) return [];
  const ids = sql.join(
    rows.map((r) => sql`${r.id}`),
    sql`, `,
  );
  const [latencies, checks] = await Promise.all([
    queryRows<{ monitor_id: number; series: number[] }>(
      ctx.db,
      sql`select m.id as monitor_id, coalesce(array(select x.latency_ms from (select s.latency_ms, s.ts from monitor_samples s
            where s.monitor_id = m.id and s.latency_ms is not null order by s.ts desc limit 12) x order by x.ts asc), '{}') as series
          from monitors m where m.id in (${ids})`,
    ),
    queryRows<{ monitor_id: number; id: string; status_to: string | null; msg: string | null; created_at: Date }>(
      ctx.db,
      sql`select e.monitor_id, e.id, e.status_to, e.msg, e.created_at from monitors m cross join lateral
          (select * from monitor_events where monitor_id = m.id order by id desc limit 20) e where m.id in (${ids}) order by e.monitor_id, e.id desc`,
    ),
  ]);
  const series = new Map(latencies.map((l) => [l.monitor_id, l.series.map(Number)]));
  const recent = new Map<number, MonitorOverviewShape["recent_checks"]>();
  for (const c of checks) {
    const list = recent.get(c.monitor_id) ?? [];
    list.push({ id: Number(c.id), status_to: c.status_to, msg: c.msg, created_at: new Date(c.created_at).toISOString() });
    recent.set(c.monitor_id, list);
  }
  return reads.map((r) => ({ ...r, latency_series: series.get(r.id) ?? [], recent_checks: recent.get(r.id) ?? [] }));
}

export const monitorOverview = defineRead<MonitorListInput, ListPage<MonitorOverviewShape>>({ scope: READ_MONITORS }, (ctx, input) =>
  listPage<MonitorRow, MonitorOverviewShape>(ctx.db, SPEC, input, filters(input), (rows) => overviewOf(ctx, rows)),
);
