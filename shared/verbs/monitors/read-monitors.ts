// GET /monitors (list envelope, default sort name), /monitors/{id} (with each vantage point's last
// result, docs/adr/0441, and its heartbeats, docs/adr/0465) and /monitors/overview (MonitorRead plus
// the last 12 latencies oldest first, the last 20 events newest first, the last 50 results, the site and
// tags, a few more queries per page whatever its size; and the counts per state and target kind of the
// whole filtered list, one more).
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { monitors } from "../../db/schema/index.ts";
import type { CheckType } from "../../domain/monitors/check-types.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import {
  MONITOR_STATUSES,
  type MonitorCountsShape,
  type MonitorDetailShape,
  type MonitorOverviewShape,
  type MonitorReadShape,
  type MonitorStatus,
  type StatusCountsShape,
} from "../../schemas/monitors.ts";
import { type ListPage, type ListSpec, listPage, searchCondition } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import type { VerbContext } from "../verb-context.ts";
import { type MonitorRow, requireMonitor } from "./monitor-row.ts";
import { presentMonitor, presentMonitors } from "./present.ts";
import { READ_MONITORS } from "./scopes.ts";
import { vantageResults } from "./vantage-read.ts";
import { heartbeatsOf } from "./heartbeats.ts";
import { siteIdOf, tagsOf } from "./target-place.ts";

const SITE_ID = siteIdOf(monitors.target_type, monitors.target_id);

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
    target_type: monitors.target_type,
    site: sql`(select st.name from sites st where st.id = ${SITE_ID})`,
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
  site_id?: number | undefined;
  tag?: string | undefined;
}

/** Every filter but `status`: the counts of the overview are of this set, so a state's tile says what its filter would list. */
const filtersButStatus = (input: MonitorListInput): (SQL | undefined)[] => [
  input.target_type === "none"
    ? isNull(monitors.target_type)
    : input.target_type !== undefined
      ? eq(monitors.target_type, input.target_type)
      : undefined,
  input.target_id !== undefined ? eq(monitors.target_id, input.target_id) : undefined,
  input.enabled !== undefined ? eq(monitors.enabled, input.enabled) : undefined,
  input.check_type !== undefined ? eq(monitors.check_type, input.check_type) : undefined,
  input.probe_agent_id !== undefined ? eq(monitors.probe_agent_id, input.probe_agent_id) : undefined,
  input.group_id !== undefined ? eq(monitors.group_id, input.group_id) : undefined,
  input.site_id !== undefined ? sql`${SITE_ID} = ${input.site_id}` : undefined,
  input.tag !== undefined ? sql`${input.tag} = any(${tagsOf(monitors.target_type, monitors.target_id)})` : undefined,
];

const filters = (input: MonitorListInput) => [
  ...filtersButStatus(input),
  input.status !== undefined ? eq(monitors.status, input.status) : undefined,
];

export const listMonitors = defineRead<MonitorListInput, ListPage<MonitorReadShape>>({ scope: READ_MONITORS }, (ctx, input) =>
  listPage<MonitorRow, MonitorReadShape>(ctx.db, SPEC, input, filters(input), (rows) => presentMonitors(ctx.db, rows, ctx.clock.now())),
);

export const getMonitor = defineRead<{ id: number }, MonitorDetailShape>({ scope: READ_MONITORS }, async (ctx, { id }) => {
  const row = await requireMonitor(ctx.db, id);
  const now = ctx.clock.now();
  const [read, vantage_results, heartbeats] = await Promise.all([
    presentMonitor(ctx.db, row, now),
    vantageResults(ctx.db, row, now),
    heartbeatsOf(ctx.db, [id]),
  ]);
  return { ...read, vantage_results, heartbeats: heartbeats.get(id) ?? [] };
});

async function overviewOf(ctx: VerbContext, rows: MonitorRow[]): Promise<MonitorOverviewShape[]> {
  const reads = await presentMonitors(ctx.db, rows, ctx.clock.now());
  if (rows.length === 0) return [];
  const ids = sql.join(
    rows.map((r) => sql`${r.id}`),
    sql`, `,
  );
  const [latencies, checks, heartbeats, places] = await Promise.all([
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
    heartbeatsOf(
      ctx.db,
      rows.map((r) => r.id),
    ),
    queryRows<{ id: number; site_id: number | null; site_name: string | null; tags: string[] }>(
      ctx.db,
      sql`select p.id, p.site_id, st.name as site_name, p.tags from
          (select m.id, ${siteIdOf(sql`m.target_type`, sql`m.target_id`)} as site_id, ${tagsOf(sql`m.target_type`, sql`m.target_id`)} as tags
           from monitors m where m.id in (${ids})) p
          left join sites st on st.id = p.site_id`,
    ),
  ]);
  const series = new Map(latencies.map((l) => [l.monitor_id, l.series.map(Number)]));
  const recent = new Map<number, MonitorOverviewShape["recent_checks"]>();
  for (const c of checks) {
    const list = recent.get(c.monitor_id) ?? [];
    list.push({ id: Number(c.id), status_to: c.status_to, msg: c.msg, created_at: new Date(c.created_at).toISOString() });
    recent.set(c.monitor_id, list);
  }
  const place = new Map(places.map((p) => [p.id, p]));
  return reads.map((r) => {
    const p = place.get(r.id);
    return {
      ...r,
      latency_series: series.get(r.id) ?? [],
      recent_checks: recent.get(r.id) ?? [],
      heartbeats: heartbeats.get(r.id) ?? [],
      site: p?.site_id != null && p.site_name != null ? { id: p.site_id, name: p.site_name } : null,
      tags: [...new Set(p?.tags ?? [])].sort(),
    };
  });
}

const noneCounted = (): StatusCountsShape => ({ up: 0, pending: 0, degraded: 0, down: 0, maintenance: 0 });

/** The counts of the overview: one grouped count over the filtered list, its status filter aside. */
async function countsOf(ctx: VerbContext, input: MonitorListInput): Promise<MonitorCountsShape> {
  const condition = and(...filtersButStatus(input), searchCondition(SPEC.search, input.q));
  const rows = await queryRows<{ target_type: string; status: string; n: number }>(
    ctx.db,
    sql`select coalesce(${monitors.target_type}, 'none') as target_type, ${monitors.status} as status, count(*)::int as n
        from ${monitors}${condition ? sql` where ${condition}` : sql``} group by 1, 2 order by 1`,
  );
  const counts: MonitorCountsShape = { total: 0, status: noneCounted(), target_types: [] };
  const kinds = new Map<string, MonitorCountsShape["target_types"][number]>();
  for (const r of rows) {
    if (!(MONITOR_STATUSES as readonly string[]).includes(r.status)) continue;
    const status = r.status as MonitorStatus;
    const kind = kinds.get(r.target_type) ?? { target_type: r.target_type, total: 0, status: noneCounted() };
    kinds.set(r.target_type, kind);
    kind.total += r.n;
    kind.status[status] += r.n;
    counts.total += r.n;
    counts.status[status] += r.n;
  }
  counts.target_types = [...kinds.values()];
  return counts;
}

export const monitorOverview = defineRead<MonitorListInput, ListPage<MonitorOverviewShape> & { counts: MonitorCountsShape }>(
  { scope: READ_MONITORS },
  async (ctx, input) => {
    const [page, counts] = await Promise.all([
      listPage<MonitorRow, MonitorOverviewShape>(ctx.db, SPEC, input, filters(input), (rows) => overviewOf(ctx, rows)),
      countsOf(ctx, input),
    ]);
    return { ...page, counts };
  },
);
