// A monitor's past: its events (newest first, list envelope; a suppressed one names its upstream, a root its dependents), one metric's samples (oldest first) and the
// probe runs its agent was asked for (agent_probe_runs by monitor_id, newest first, list envelope).
import { and, count, desc, eq, gte, isNotNull, type SQL, sql } from "drizzle-orm";
import { agentProbeRuns, monitorEvents, monitorSamples } from "../../db/schema/index.ts";
import { type MonitorEventAlertShape, type MonitorEventShape, type ProbeRunShape, SAMPLE_METRICS } from "../../schemas/monitors.ts";
import type { ListPage } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import { actorCan } from "../actor.ts";
import { READ_ALERTS } from "../notifications/scopes.ts";
import { alertsOfEvents } from "./event-alerts.ts";
import { dependentsOf, upstreamsOf } from "./event-upstream.ts";
import { requireMonitor } from "./monitor-row.ts";
import { READ_MONITORS } from "./scopes.ts";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const alertOut = (a: (MonitorEventAlertShape & { kind: string }) | undefined): MonitorEventAlertShape | null =>
  a ? { id: a.id, dispatch_state: a.dispatch_state, incident_id: a.incident_id, deliveries: a.deliveries } : null;
const page = <T>(items: T[], total: number, limit: number, offset: number, sort: string): ListPage<T> => ({
  items,
  total,
  limit,
  offset,
  sort,
  direction: "desc",
});

export const listMonitorEvents = defineRead<
  { id: number; limit: number; offset: number; event_type?: string | undefined },
  ListPage<MonitorEventShape>
>({ scope: READ_MONITORS }, async (ctx, { id, limit, offset, event_type }) => {
  await requireMonitor(ctx.db, id);
  const where = and(eq(monitorEvents.monitor_id, id), event_type ? eq(monitorEvents.event_type, event_type) : undefined);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(monitorEvents).where(where).orderBy(desc(monitorEvents.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(monitorEvents).where(where),
  ]);
  const [upstreams, alerts] = await Promise.all([
    upstreamsOf(ctx.db, ctx.actor, [...new Set(rows.map((e) => e.suppressed_by).filter((a): a is number => a != null))]),
    alertsOfEvents(
      ctx.db,
      id,
      rows.map((e) => e.id),
    ),
  ]);
  // The down alerts others were folded into (a root's alert id -> its event's id).
  const roots = new Map([...alerts].filter(([, a]) => a.kind === "monitor.down").map(([eventId, a]) => [a.id, eventId]));
  const dependents = await dependentsOf(ctx.db, roots);
  // The alert itself is the on-call person's (read:alerts): a token narrowed to monitors sees none.
  const mayReadAlerts = ctx.actor ? actorCan(ctx.actor, READ_ALERTS) : false;
  const items = rows.map((e) => ({
    id: e.id,
    monitor_id: e.monitor_id,
    event_type: e.event_type,
    status_from: e.status_from,
    status_to: e.status_to,
    msg: e.msg,
    duration_secs: e.duration_secs,
    suppressed_by: e.suppressed_by,
    upstream: e.suppressed_by == null ? null : (upstreams.get(e.suppressed_by) ?? null),
    suppressed_dependents: dependents.get(e.id) ?? [],
    alert: mayReadAlerts ? alertOut(alerts.get(e.id)) : null,
    detail: e.detail ?? null,
    created_at: e.created_at.toISOString(),
  }));
  return page(items, total?.n ?? 0, limit, offset, "created_at");
});

/** The SQL value of a metric: a sample column (avail as 1/0) or a number in `extra`. */
function metricValue(metric: string): SQL {
  if (metric === "avail") return sql`case when ${monitorSamples.avail} then 1 else 0 end`;
  if ((SAMPLE_METRICS as readonly string[]).includes(metric)) return sql`${sql.identifier(metric)}::float8`;
  return sql`(${monitorSamples.extra} ->> ${metric})::float8`;
}

export const monitorHistory = defineRead<{ id: number; metric: string; hours: number }, { ts: string; value: number }[]>(
  { scope: READ_MONITORS },
  async (ctx, { id, metric, hours }) => {
    await requireMonitor(ctx.db, id);
    const since = new Date(ctx.clock.now().getTime() - hours * 3_600_000);
    const value = metricValue(metric);
    const rows = await ctx.db
      .select({ ts: monitorSamples.ts, value: sql<number | null>`${value}` })
      .from(monitorSamples)
      .where(and(eq(monitorSamples.monitor_id, id), gte(monitorSamples.ts, since), sql`${value} is not null`))
      .orderBy(monitorSamples.ts)
      .limit(50_000);
    return rows.filter((r) => r.value != null).map((r) => ({ ts: r.ts.toISOString(), value: Number(r.value) }));
  },
);

const FINISHED = new Set(["completed", "execution_error", "cancelled", "rejected", "expired"]);

export const monitorProbeRuns = defineRead<{ id: number; limit: number; offset: number }, ListPage<ProbeRunShape>>(
  { scope: READ_MONITORS },
  async (ctx, { id, limit, offset }) => {
    await requireMonitor(ctx.db, id);
    const where = and(eq(agentProbeRuns.monitor_id, id), isNotNull(agentProbeRuns.monitor_id));
    const [rows, [total]] = await Promise.all([
      ctx.db
        .select()
        .from(agentProbeRuns)
        .where(where)
        .orderBy(desc(agentProbeRuns.created_at), desc(agentProbeRuns.run_id))
        .limit(limit)
        .offset(offset),
      ctx.db.select({ n: count() }).from(agentProbeRuns).where(where),
    ]);
    const items = rows.map((r) => ({
      run_id: r.run_id,
      agent_id: r.agent_id,
      status: r.state,
      outcome: FINISHED.has(r.state) ? (r.up == null ? r.state : r.up ? "up" : "down") : null,
      msg: r.msg,
      error_code: typeof r.details?.error_code === "string" ? r.details.error_code : null,
      scheduled_at: r.scheduled_at.toISOString(),
      dispatched_at: iso(r.dispatched_at),
      deadline_at: r.deadline_at.toISOString(),
      started_at: iso(r.dispatched_at),
      completed_at: iso(r.finished_at ?? r.received_at),
      attempt_count: r.dispatched_at ? 1 : 0,
      created_at: r.created_at.toISOString(),
    }));
    return page(items, total?.n ?? 0, limit, offset, "created_at");
  },
);
