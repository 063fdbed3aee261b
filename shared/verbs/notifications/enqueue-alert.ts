// The hand-off from monitors to notifications (issue 12, agreed between the teams): the verb that records
// a state change calls enqueueAlert in its own transaction, so an alert exists if and only if the change
// committed. The delivery worker hears of it through NOTIFY `notifications` (PostgreSQL delivers a NOTIFY
// issued inside a transaction only when that transaction commits) and dispatches it after the grouping
// delay, when dependent failures can be folded into their root cause (dispatch-alerts.ts).
import { sql } from "drizzle-orm";
import { notificationAlerts } from "../../db/schema/notifications.ts";
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

export async function enqueueAlert(s: VerbScope, alert: AlertInput): Promise<void> {
  const [row] = await s.tx
    .insert(notificationAlerts)
    .values({
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
  await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ alert_id: row!.id })})`);
}
