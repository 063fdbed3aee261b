// The hand-off from monitors to notifications (issue 12, agreed between the teams): the verb that records
// a state change calls enqueueAlert in its own transaction, so an alert exists if and only if the change
// committed. The delivery worker hears of it through NOTIFY `notifications` (PostgreSQL delivers a NOTIFY
// issued inside a transaction only when that transaction commits) and dispatches it after the grouping
// delay, when dependent failures can be folded into their root cause (dispatch-alerts.ts).
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { notificationAlerts } from "../../db/schema/notifications.ts";
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
 * The open incident of `subject`: the firing alert that opened it, locked so that a recovery and a new
 * firing about the same subject are serialized (each subject's alerts come from one recording path anyway).
 */
async function openIncident(s: VerbScope, subject: string): Promise<number | null> {
  const [row] = await queryRows<{ id: number }>(
    s.tx,
    sql`select id::int as id from notification_alerts where subject = ${subject} and incident_id = id and resolved_at is null
      order by id desc limit 1 for update`,
  );
  return row?.id ?? null;
}

export async function enqueueAlert(s: VerbScope, alert: AlertInput): Promise<void> {
  // The lifecycle (docs/adr/0442-alert-lifecycle.md): a firing alert joins its subject's open incident or
  // opens one; a recovery ends the open incident (none open: it stands alone, an old incident's tail).
  const status = alertStatusOf(alert.kind);
  const subject = alertSubject(alert);
  const open = subject ? await openIncident(s, subject) : null;
  if (status === "resolved" && open != null)
    await s.tx.update(notificationAlerts).set({ resolved_at: alert.occurred_at }).where(eq(notificationAlerts.id, open));
  const [row] = await s.tx
    .insert(notificationAlerts)
    .values({
      subject,
      incident_id: open,
      kind: alert.kind,
      severity: alert.severity,
      monitor_id: alert.monitor_id,
      target_type: alert.target_type,
      target_id: alert.target_id,
      title: alert.title.slice(0, MAX_TITLE),
      body: alert.body.slice(0, MAX_BODY),
      detail: alert.detail,
      occurred_at: alert.occurred_at,
    })
    .returning({ id: notificationAlerts.id });
  if (status === "firing" && open == null)
    await s.tx.update(notificationAlerts).set({ incident_id: row!.id }).where(eq(notificationAlerts.id, row!.id));
  // Open alerts screens learn of it (docs/adr/0447-acknowledgement.md).
  s.emit("monitors", {
    type: "alert",
    action: status,
    alert_id: row!.id,
    incident_id: status === "firing" && open == null ? row!.id : open,
  });
  await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ alert_id: row!.id })})`);
}
