// POST and DELETE /alerts/{id}/acknowledge (docs/adr/0447-acknowledgement.md): someone has the incident in hand.
// The acknowledgement is on the incident (its opening alert), whichever of its alerts was named; an event
// has no incident and a resolved incident needs no one, so both are a 409. Acknowledging what is already
// acknowledged (or un-acknowledging what is not) changes nothing and answers the incident as it is.
import { eq } from "drizzle-orm";
import { notificationAlerts } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { AlertDetailShape } from "../../schemas/alerts.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { readIncident } from "./read-alerts.ts";
import { WRITE_ALERTS } from "./scopes.ts";

type AlertRow = typeof notificationAlerts.$inferSelect;

/** The incident `alertId` belongs to, locked; a 404, or a 409 for an event or a resolved incident. */
export async function lockIncident(s: VerbScope, alertId: number, what: "acknowledged" | "un-acknowledged"): Promise<AlertRow> {
  const [named] = await s.tx.select().from(notificationAlerts).where(eq(notificationAlerts.id, alertId));
  if (!named) throw ApiError.notFound("Alert", alertId);
  if (named.incident_id == null)
    throw ApiError.conflict(
      `Alert ${alertId} (${named.kind}) is an event, not part of an incident: only an incident (a down, degraded or firing alert) can be ${what}.`,
      { reason: "not_incident" },
    );
  const [incident] = await s.tx.select().from(notificationAlerts).where(eq(notificationAlerts.id, named.incident_id)).for("update");
  if (!incident) throw ApiError.notFound("Alert", named.incident_id);
  if (incident.resolved_at)
    throw ApiError.conflict(
      `Incident ${incident.id} was resolved at ${incident.resolved_at.toISOString()}: a resolved incident cannot be ${what}.`,
      { reason: "resolved" },
    );
  return incident;
}

/** Sets the acknowledgement on a locked, unresolved incident (no-op when it has one), audited and streamed. */
export async function setAcknowledged(
  s: VerbScope,
  incident: AlertRow,
  by: { name: string; note: string | null; via: "api" | "link"; alert_id: number; sink_id?: number },
): Promise<boolean> {
  if (incident.acknowledged_at) return false;
  await s.tx
    .update(notificationAlerts)
    .set({ acknowledged_at: s.now, acknowledged_by: by.name, acknowledged_note: by.note })
    .where(eq(notificationAlerts.id, incident.id));
  s.audit({
    action: "alert.acknowledge",
    category: "notifications",
    entity_type: "notification_alert",
    entity_id: incident.id,
    diff: { alert_id: by.alert_id, acknowledged_by: by.name, note: by.note, via: by.via, ...(by.sink_id ? { sink_id: by.sink_id } : {}) },
  });
  s.emit("monitors", { type: "alert", action: "acknowledged", alert_id: incident.id, monitor_id: incident.monitor_id });
  return true;
}

const actorName = (s: VerbScope) => s.ctx.actor?.email ?? (s.ctx.actor?.userId != null ? `user ${s.ctx.actor.userId}` : "system");

export const acknowledgeAlert = defineVerb(
  { scope: WRITE_ALERTS },
  async (s, { id, note }: { id: number; note?: string | undefined }): Promise<AlertDetailShape> => {
    const incident = await lockIncident(s, id, "acknowledged");
    await setAcknowledged(s, incident, { name: actorName(s), note: note ? note : null, via: "api", alert_id: id });
    return readIncident(s.tx, incident.id);
  },
);

export const unacknowledgeAlert = defineVerb({ scope: WRITE_ALERTS }, async (s, { id }: { id: number }): Promise<AlertDetailShape> => {
  const incident = await lockIncident(s, id, "un-acknowledged");
  if (incident.acknowledged_at) {
    await s.tx
      .update(notificationAlerts)
      .set({ acknowledged_at: null, acknowledged_by: null, acknowledged_note: null })
      .where(eq(notificationAlerts.id, incident.id));
    s.audit({
      action: "alert.unacknowledge",
      category: "notifications",
      entity_type: "notification_alert",
      entity_id: incident.id,
      diff: {
        alert_id: id,
        acknowledged_by_before: incident.acknowledged_by,
        acknowledged_at_before: incident.acknowledged_at.toISOString(),
      },
    });
    s.emit("monitors", { type: "alert", action: "unacknowledged", alert_id: incident.id, monitor_id: incident.monitor_id });
  }
  return readIncident(s.tx, incident.id);
});
