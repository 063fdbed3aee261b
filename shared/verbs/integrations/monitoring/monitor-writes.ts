// Operator writes on integration monitors: link one to a hardware node or a service (PATCH
// /integrations/{id}/monitors/{monitor_id}, 404s as the reference words them), and give a status-change
// event its reason (PATCH /integrations/monitors/events/{event_id}: reason_by is the actor's user id).
import { and, eq } from "drizzle-orm";
import { hardware, integrationMonitorEvents, integrationMonitors, services } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import { findIntegration } from "./integration-row.ts";

export type EventRow = typeof integrationMonitorEvents.$inferSelect;

export const linkIntegrationMonitor = defineVerb<
  {
    integrationId: number;
    monitorId: number;
    linked_hardware_id?: number | null | undefined;
    linked_service_id?: number | null | undefined;
  },
  number
>({ scope: WRITE_INTEGRATIONS }, async (s, input) => {
  const integration = await findIntegration(s.tx, input.integrationId);
  const [row] = await s.tx
    .select()
    .from(integrationMonitors)
    .where(and(eq(integrationMonitors.id, input.monitorId), eq(integrationMonitors.integration_id, integration.id)))
    .for("update");
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", "Monitor not found");
  if (
    input.linked_hardware_id != null &&
    (await s.tx.select({ id: hardware.id }).from(hardware).where(eq(hardware.id, input.linked_hardware_id))).length === 0
  )
    throw new ApiError("RESOURCE_NOT_FOUND", "Hardware asset not found");
  if (
    input.linked_service_id != null &&
    (await s.tx.select({ id: services.id }).from(services).where(eq(services.id, input.linked_service_id))).length === 0
  )
    throw new ApiError("RESOURCE_NOT_FOUND", "Service not found");
  const set = {
    ...(input.linked_hardware_id !== undefined && { linked_hardware_id: input.linked_hardware_id }),
    ...(input.linked_service_id !== undefined && { linked_service_id: input.linked_service_id }),
  };
  await s.tx
    .update(integrationMonitors)
    .set({ ...set, updated_at: s.now })
    .where(eq(integrationMonitors.id, row.id));
  s.audit({
    action: "integrations.monitor.linked",
    category: "integrations",
    entity_type: "integration_monitor",
    entity_id: row.id,
    diff: { name: row.name, integration_id: integration.id, ...set },
  });
  return row.id;
});

export const setEventReason = defineVerb<{ eventId: number; reason: string }, EventRow>(
  { scope: WRITE_INTEGRATIONS },
  async (s, { eventId, reason }) => {
    const [row] = await s.tx
      .update(integrationMonitorEvents)
      .set({ reason: reason === "" ? null : reason, reason_by: s.ctx.actor?.userId ?? null, reason_at: s.now })
      .where(eq(integrationMonitorEvents.id, eventId))
      .returning();
    if (!row) throw new ApiError("RESOURCE_NOT_FOUND", "Event not found");
    s.audit({
      action: "integrations.monitor.event_reason",
      category: "integrations",
      entity_type: "integration_monitor_event",
      entity_id: row.id,
      diff: { monitor_id: row.monitor_id, reason: row.reason },
    });
    return row;
  },
);

export function presentEvent(row: EventRow) {
  return {
    id: row.id,
    monitor_id: row.monitor_id,
    previous_status: row.previous_status,
    new_status: row.new_status,
    detected_at: row.detected_at.toISOString(),
    reason: row.reason,
    reason_by: row.reason_by,
    reason_at: row.reason_at ? row.reason_at.toISOString() : null,
  };
}
