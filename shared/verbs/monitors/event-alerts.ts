// The alert each of a monitor's events raised (record-results puts the event's id in the alert's
// detail), with what became of it: the dispatch state and its deliveries by outcome. Read for the
// events page through notification_alerts' (monitor_id, occurred_at) index, never by scanning events.
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { notificationAlerts } from "../../db/schema/index.ts";
import type { MonitorEventAlertShape } from "../../schemas/monitors.ts";
import { deliverySummary } from "../notifications/delivery-summary.ts";

/** Each event id of `eventIds` that raised an alert, mapped to that alert. */
export async function alertsOfEvents(
  db: Db,
  monitorId: number,
  eventIds: number[],
): Promise<Map<number, MonitorEventAlertShape & { kind: string }>> {
  const out = new Map<number, MonitorEventAlertShape & { kind: string }>();
  if (eventIds.length === 0) return out;
  const alerts = await db
    .select({
      id: notificationAlerts.id,
      kind: notificationAlerts.kind,
      state: notificationAlerts.state,
      incident_id: notificationAlerts.incident_id,
      event_id: sql<string>`${notificationAlerts.detail} ->> 'event_id'`,
    })
    .from(notificationAlerts)
    .where(
      and(eq(notificationAlerts.monitor_id, monitorId), inArray(sql`${notificationAlerts.detail} ->> 'event_id'`, eventIds.map(String))),
    );
  if (alerts.length === 0) return out;
  const counts = await queryRows<{ alert_id: number; state: string; n: number }>(
    db,
    sql`select alert_id::int as alert_id, state, count(*)::int as n from notification_deliveries
      where alert_id in ${alerts.map((a) => a.id)} group by 1, 2`,
  );
  for (const a of alerts)
    out.set(Number(a.event_id), {
      id: a.id,
      kind: a.kind,
      dispatch_state: a.state,
      incident_id: a.incident_id,
      deliveries: deliverySummary(counts.filter((c) => c.alert_id === a.id)),
    });
  return out;
}
