// GET /alerts and /alerts/{id} (ours, docs/adr/0447-acknowledgement.md): the incidents (each listed once, as the
// alert that opened it, with its lifecycle) and the events, which have none. The alerts that joined an
// incident or resolved it are shown on its page, not as items of their own.
import { asc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { monitors, notificationAlerts, notificationDeliveries, notificationSinks } from "../../db/schema/index.ts";
import { alertStatusOf } from "../../domain/notifications/alert-status.ts";
import { ApiError } from "../../errors.ts";
import type { AlertDetailShape, AlertShape, AlertState } from "../../schemas/alerts.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { defineSnapshotRead } from "../verb.ts";
import { deliverySummary } from "./delivery-summary.ts";
import { READ_ALERTS } from "./scopes.ts";

type AlertRow = typeof notificationAlerts.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function alertStateOf(a: Pick<AlertRow, "id" | "incident_id" | "resolved_at" | "acknowledged_at">): AlertState {
  if (a.incident_id !== a.id) return "event";
  return a.resolved_at ? "resolved" : a.acknowledged_at ? "acknowledged" : "open";
}

function alertFields(a: AlertRow) {
  return {
    id: a.id,
    kind: a.kind,
    status: alertStatusOf(a.kind),
    severity: a.severity,
    title: a.title,
    body: a.body,
    monitor_id: a.monitor_id,
    target_type: a.target_type,
    target_id: a.target_id,
    subject: a.subject,
    incident_id: a.incident_id,
    dispatch_state: a.state,
    occurred_at: a.occurred_at.toISOString(),
  };
}

/** The page's items with their incident's alert count and deliveries: two queries whatever the page size. */
async function present(db: Db, rows: AlertRow[]): Promise<AlertShape[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const monitorIds = [...new Set(rows.map((r) => r.monitor_id).filter((m): m is number => m != null))];
  const [counts, deliveries, names] = await Promise.all([
    queryRows<{ key: number; n: number; last: string }>(
      db,
      sql`select incident_id::int as key, count(*)::int as n, max(occurred_at) as last from notification_alerts
        where incident_id in ${ids} group by incident_id`,
    ),
    queryRows<{ key: number; state: string; n: number }>(
      db,
      sql`select coalesce(a.incident_id, a.id)::int as key, d.state, count(*)::int as n
        from notification_deliveries d join notification_alerts a on a.id = d.alert_id
        where a.id in ${ids} or a.incident_id in ${ids} group by 1, 2`,
    ),
    monitorIds.length > 0
      ? db.select({ id: monitors.id, name: monitors.name }).from(monitors).where(inArray(monitors.id, monitorIds))
      : Promise.resolve([]),
  ]);
  const nameOf = new Map(names.map((m) => [m.id, m.name]));
  const countOf = new Map(counts.map((c) => [c.key, c]));
  return rows.map((a) => {
    const c = alertStateOf(a) === "event" ? undefined : countOf.get(a.id);
    return {
      ...alertFields(a),
      monitor_name: a.monitor_id != null ? (nameOf.get(a.monitor_id) ?? null) : null,
      state: alertStateOf(a),
      resolved_at: iso(a.resolved_at),
      acknowledged_at: iso(a.acknowledged_at),
      acknowledged_by: a.acknowledged_by,
      acknowledged_note: a.acknowledged_note,
      alert_count: c?.n ?? 1,
      last_alert_at: c ? new Date(c.last).toISOString() : a.occurred_at.toISOString(),
      deliveries: deliverySummary(deliveries.filter((x) => x.key === a.id)),
    };
  });
}

const SPEC = {
  table: notificationAlerts,
  id: notificationAlerts.id,
  sortable: {
    occurred_at: notificationAlerts.occurred_at,
    id: notificationAlerts.id,
    // The ladder info < warning < critical, not the words' alphabetical order.
    severity: sql`(case ${notificationAlerts.severity} when 'critical' then 2 when 'warning' then 1 else 0 end)`,
  },
  search: [notificationAlerts.title, notificationAlerts.body],
};

const isOpener = sql`${notificationAlerts.incident_id} = ${notificationAlerts.id}`;

const STATE_WHERE: Record<AlertState, SQL> = {
  open: sql`${isOpener} and ${notificationAlerts.resolved_at} is null and ${notificationAlerts.acknowledged_at} is null`,
  acknowledged: sql`${isOpener} and ${notificationAlerts.resolved_at} is null and ${notificationAlerts.acknowledged_at} is not null`,
  resolved: sql`${isOpener} and ${notificationAlerts.resolved_at} is not null`,
  event: sql`${notificationAlerts.incident_id} is null`,
};

export interface AlertListInput extends ListParams {
  state?: AlertState | undefined;
  kind?: string | undefined;
  monitor_id?: number | undefined;
  severity?: string | undefined;
}

export const listAlerts = defineSnapshotRead<AlertListInput, ListPage<AlertShape>>({ scope: READ_ALERTS }, (ctx, q) =>
  listPage<AlertRow, AlertShape>(
    ctx.db,
    SPEC,
    q,
    [
      q.state ? STATE_WHERE[q.state] : sql`(${isOpener} or ${notificationAlerts.incident_id} is null)`,
      q.kind ? eq(notificationAlerts.kind, q.kind) : undefined,
      q.monitor_id !== undefined ? eq(notificationAlerts.monitor_id, q.monitor_id) : undefined,
      q.severity ? eq(notificationAlerts.severity, q.severity) : undefined,
    ],
    (rows) => present(ctx.db, rows),
  ),
);

/** The incident (or event) `id` belongs to, with its alerts in order and their deliveries; 404 when none. */
export async function readIncident(db: Db, id: number): Promise<AlertDetailShape> {
  const [row] = await db.select().from(notificationAlerts).where(eq(notificationAlerts.id, id));
  if (!row) throw ApiError.notFound("Alert", id);
  const head = row.incident_id != null && row.incident_id !== row.id ? row.incident_id : row.id;
  const [opener] = head === row.id ? [row] : await db.select().from(notificationAlerts).where(eq(notificationAlerts.id, head));
  if (!opener) throw ApiError.notFound("Alert", id);
  const alerts =
    opener.incident_id === opener.id
      ? await db
          .select()
          .from(notificationAlerts)
          .where(or(eq(notificationAlerts.incident_id, head), eq(notificationAlerts.id, head)))
          .orderBy(asc(notificationAlerts.occurred_at), asc(notificationAlerts.id))
      : [opener];
  const deliveries = await db
    .select({
      id: notificationDeliveries.id,
      alert_id: notificationDeliveries.alert_id,
      sink_id: notificationDeliveries.sink_id,
      sink_name: notificationSinks.name,
      state: notificationDeliveries.state,
      attempt_count: notificationDeliveries.attempt_count,
      delivered_at: notificationDeliveries.delivered_at,
      created_at: notificationDeliveries.created_at,
    })
    .from(notificationDeliveries)
    .leftJoin(notificationSinks, eq(notificationSinks.id, notificationDeliveries.sink_id))
    .where(
      inArray(
        notificationDeliveries.alert_id,
        alerts.map((a) => a.id),
      ),
    )
    .orderBy(asc(notificationDeliveries.id));
  const [shape] = await present(db, [opener]);
  return {
    ...shape!,
    alerts: alerts.map(alertFields),
    // Selected by alert, so each has its alert and sink (a subscriber's delivery has neither: adr/0458).
    deliveries_list: deliveries.map((d) => ({
      ...d,
      alert_id: d.alert_id!,
      sink_id: d.sink_id!,
      delivered_at: iso(d.delivered_at),
      created_at: d.created_at.toISOString(),
    })),
  };
}

/** The version of an incident's page, for its ETag: what an acknowledgement, a new alert or a delivery changes. */
export function incidentVersion(a: AlertDetailShape): string {
  const d = a.deliveries;
  return [
    a.id,
    a.alert_count,
    Date.parse(a.acknowledged_at ?? "0") || 0,
    Date.parse(a.resolved_at ?? "0") || 0,
    d.delivered,
    d.pending,
    d.dead,
  ].join("-");
}

export const getAlert = defineSnapshotRead<{ id: number }, AlertDetailShape>({ scope: READ_ALERTS }, (ctx, { id }) =>
  readIncident(ctx.db, id),
);
