// The hand-off from monitors to notifications (issue 12, agreed between the teams): the verb that records
// a state change calls enqueueAlert in its own transaction, so an alert exists if and only if the change
// committed. The delivery worker hears of it through NOTIFY `notifications` (PostgreSQL delivers a NOTIFY
// issued inside a transaction only when that transaction commits) and dispatches it after the grouping
// delay, when dependent failures can be folded into their root cause (dispatch-alerts.ts).
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { alertStatusOf, alertSubject } from "../../domain/notifications/alert-status.ts";
import type { VerbScope } from "../verb.ts";

export type AlertSeverity = "info" | "warning" | "critical";

export interface AlertInput {
  kind: "monitor.down" | "monitor.up" | "monitor.pending" | (string & {});
  severity: AlertSeverity;
  monitor_id: number | null;
  target_type: string | null;
  target_id: number | null;
  title: string;
  body: string;
  detail: Record<string, unknown>;
  occurred_at: Date;
}

/** The channel the delivery worker listens on. */
export const NOTIFICATIONS_CHANNEL = "notifications";

const MAX_TITLE = 500;
const MAX_BODY = 4000;

/**
 * Records an alert in the caller's transaction, in one statement (a burst of 1,000 alerts took four
 * round trips each: docs/adr/0478). The lifecycle (docs/adr/0442-alert-lifecycle.md): a firing alert joins
 * its subject's open incident or opens one (its own id); a recovery ends the open incident (none open: it
 * stands alone, an old incident's tail). The open incident's row is locked, so a recovery and a new firing
 * about the same subject are serialized (each subject's alerts come from one recording path anyway).
 */
export async function enqueueAlert(s: VerbScope, alert: AlertInput): Promise<void> {
  const status = alertStatusOf(alert.kind);
  const subject = alertSubject(alert);
  const [row] = await queryRows<{ id: number; incident_id: number | null }>(
    s.tx,
    sql`with open as (
        select id from notification_alerts
        where ${subject}::text is not null and subject = ${subject} and incident_id = id and resolved_at is null
        order by id desc limit 1 for update
      ), resolved as (
        update notification_alerts set resolved_at = ${alert.occurred_at.toISOString()}::timestamptz
        where ${status === "resolved"}::boolean and id = (select id from open)
      ), new as (select nextval('notification_alerts_id_seq') as id)
      insert into notification_alerts (id, subject, incident_id, kind, severity, monitor_id, target_type, target_id, title, body, detail, occurred_at)
      select new.id, ${subject}, coalesce((select id from open), case when ${status === "firing"}::boolean then new.id end),
        ${alert.kind}, ${alert.severity}, ${alert.monitor_id}, ${alert.target_type}, ${alert.target_id},
        ${alert.title.slice(0, MAX_TITLE)}, ${alert.body.slice(0, MAX_BODY)}, ${JSON.stringify(alert.detail)}::jsonb, ${alert.occurred_at.toISOString()}::timestamptz
      from new
      returning id::int as id, incident_id::int as incident_id`,
  );
  // Open alerts screens learn of it (docs/adr/0447-acknowledgement.md).
  s.emit("monitors", { type: "alert", action: status, alert_id: row!.id, incident_id: row!.incident_id });
  // The delivery worker wakes on any payload of this channel; an identical payload is delivered once per
  // transaction, so a batch of alerts wakes it once, and the NOTIFY goes with the verb's own at its end.
  s.emit(NOTIFICATIONS_CHANNEL, { alerts: true });
}

/**
 * Records several alerts in the caller's transaction, their statements pipelined on its connection (one
 * round trip's wait for the lot, not one each: a burst of monitors going down together). PostgreSQL runs
 * them one after another in the order given, so a later alert about the same subject still sees the
 * incident an earlier one opened, exactly as awaiting each in turn would.
 */
export async function enqueueAlerts(s: VerbScope, alerts: AlertInput[]): Promise<void> {
  await Promise.all(alerts.map((a) => enqueueAlert(s, a)));
}
