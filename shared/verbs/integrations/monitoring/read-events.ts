// GET /integrations/{id}/monitors/{monitor_id}/events (ours): a monitor's status changes, the list
// envelope, by detected_at (direction=desc for the newest first).
import { and, eq } from "drizzle-orm";
import { integrationMonitorEvents, integrationMonitors } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import { type ListPage, type ListSpec, listPage } from "../../resources/list.ts";
import { defineRead } from "../../verb.ts";
import { READ_INTEGRATIONS } from "../scopes.ts";
import { findIntegration } from "./integration-row.ts";
import { type EventRow, presentEvent } from "./monitor-writes.ts";

const SPEC: ListSpec = {
  table: integrationMonitorEvents,
  id: integrationMonitorEvents.id,
  sortable: { detected_at: integrationMonitorEvents.detected_at, id: integrationMonitorEvents.id },
  search: [integrationMonitorEvents.new_status, integrationMonitorEvents.reason],
};

export const listMonitorEvents = defineRead<
  ListParams & { integrationId: number; monitorId: number },
  ListPage<ReturnType<typeof presentEvent>>
>({ scope: READ_INTEGRATIONS }, async (ctx, input) => {
  await findIntegration(ctx.db, input.integrationId);
  const [monitor] = await ctx.db
    .select({ id: integrationMonitors.id })
    .from(integrationMonitors)
    .where(and(eq(integrationMonitors.id, input.monitorId), eq(integrationMonitors.integration_id, input.integrationId)));
  if (!monitor) throw new ApiError("RESOURCE_NOT_FOUND", "Monitor not found");
  return listPage<EventRow, ReturnType<typeof presentEvent>>(
    ctx.db,
    SPEC,
    input,
    [eq(integrationMonitorEvents.monitor_id, monitor.id)],
    (rows) => rows.map(presentEvent),
  );
});
