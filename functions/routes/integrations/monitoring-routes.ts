// [integrations] monitoring integrations (spec/catalogue.tsv, group integrations): the registry, CRUD, test and sync
// of Uptime Kuma integrations, their monitors (all, one integration's, linking one to a node or a
// service, its events) and the built-in (native) monitors. Fixed paths are registered before
// /integrations/{id}: Hono tries routes in registration order.
import type { Hono } from "hono";
import {
  EventParams,
  EventReasonBody,
  IntegrationCreate,
  IntegrationList,
  IntegrationListQuery,
  IntegrationMonitorArray,
  IntegrationMonitorOut,
  IntegrationMonitorParams,
  IntegrationOut,
  IntegrationParams,
  IntegrationUpdate,
  MonitorEventList,
  MonitorEventListQuery,
  MonitorEventOut,
  MonitorLinkBody,
  RegistryOut,
  TestOut,
} from "../../../shared/schemas/integrations.ts";
import { presentIntegration } from "../../../shared/verbs/integrations/monitoring/integration-row.ts";
import {
  listAllIntegrationMonitors,
  listIntegrationMonitors,
  readIntegrationMonitor,
} from "../../../shared/verbs/integrations/monitoring/monitor-reads.ts";
import { linkIntegrationMonitor, presentEvent, setEventReason } from "../../../shared/verbs/integrations/monitoring/monitor-writes.ts";
import { listMonitorEvents } from "../../../shared/verbs/integrations/monitoring/read-events.ts";
import { getIntegration, integrationRegistry, listIntegrations } from "../../../shared/verbs/integrations/monitoring/read-integrations.ts";
import { syncMonitoringIntegration } from "../../../shared/verbs/integrations/monitoring/sync-integration.ts";
import { testIntegration } from "../../../shared/verbs/integrations/monitoring/test-integration.ts";
import {
  createIntegration,
  deleteIntegration,
  updateIntegration,
} from "../../../shared/verbs/integrations/monitoring/write-integrations.ts";
import { WRITE_INTEGRATIONS } from "../../../shared/verbs/integrations/scopes.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { nativeMonitorRoutes } from "./native-monitor-routes.ts";

const BASE = "/api/v1/integrations";
const TAG = "integrations";

const WRITE_NOTE = [
  '`type` uptime_kuma (an unknown type is the reference\'s 400 "Unknown integration type"; `native` is created by /integrations/native/monitors).',
  '`base_url` (required for uptime_kuma) is checked against the outbound (SSRF) policy: 422 naming the field. `slug` is the status page (default "default").',
  '`api_key` is sealed by the vault and never returned (`api_key_set`); with one, the sync also reads Uptime Kuma\'s /metrics. On PATCH null or "" clears it, leaving it out keeps it.',
  "`sync_interval_s` 30..86400 (default 60): the sidecar syncs each enabled integration that often.",
].join(" ");

export function monitoringRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${BASE}/registry`,
      tag: TAG,
      scope: integrationRegistry.scope,
      response: { schema: RegistryOut },
      summary: "Monitoring integration types",
      description: "The types a client can add, with the config fields to render.",
    },
    async (c, { reply }) => reply(await integrationRegistry({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/monitors`,
      tag: TAG,
      scope: listAllIntegrationMonitors.scope,
      response: { schema: IntegrationMonitorArray },
      summary: "Every integration's monitors",
      description:
        "An array ordered by integration name, then monitor name. Native rows show their monitor's live status, last check, latency and uptime.",
    },
    async (c, { reply }) => reply(await listAllIntegrationMonitors({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "patch",
      path: `${BASE}/monitors/events/:event_id`,
      tag: TAG,
      scope: setEventReason.scope,
      params: EventParams,
      body: EventReasonBody,
      response: { schema: MonitorEventOut },
      summary: "Give a status change its reason",
      description: '`reason_by` is the caller\'s user id, `reason_at` now; an empty reason clears it. 404 "Event not found".',
    },
    async (c, { params, body, reply }) =>
      reply(presentEvent(await setEventReason({ ctx: verbContext(c), input: { eventId: params.event_id, reason: body.reason } }))),
  );

  nativeMonitorRoutes(app);

  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: TAG,
      scope: listIntegrations.scope,
      query: IntegrationListQuery,
      response: { schema: IntegrationList },
      summary: "List monitoring integrations",
      description: "The list envelope; `sort` created_at (default), name, type or id; filter `type`; `q` over name and base_url.",
    },
    async (c, { query, reply }) => reply(await listIntegrations({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: TAG,
      scope: createIntegration.scope,
      body: IntegrationCreate,
      response: { status: 201, schema: IntegrationOut },
      errors: [400, 409, 503],
      summary: "Add a monitoring integration",
      description: WRITE_NOTE,
    },
    async (c, { body, reply }) => reply(presentIntegration(await createIntegration({ ctx: verbContext(c), input: { body } }), 0), 201),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:integration_id`,
      tag: TAG,
      scope: getIntegration.scope,
      params: IntegrationParams,
      response: { schema: IntegrationOut },
      summary: "One monitoring integration",
      description: '404 "Integration not found".',
    },
    async (c, { params, reply }) => reply(await getIntegration({ ctx: verbContext(c), input: { id: params.integration_id } })),
  );

  route(
    app,
    {
      method: "patch",
      path: `${BASE}/:integration_id`,
      tag: TAG,
      scope: updateIntegration.scope,
      params: IntegrationParams,
      body: IntegrationUpdate,
      response: { schema: IntegrationOut },
      errors: [503],
      summary: "Change a monitoring integration",
      description: `Only the fields given change. ${WRITE_NOTE}`,
    },
    async (c, { params, body, reply }) => {
      const ctx = verbContext(c);
      await updateIntegration({ ctx, input: { id: params.integration_id, body } });
      return reply(await getIntegration({ ctx, input: { id: params.integration_id } }));
    },
  );

  route(
    app,
    {
      method: "delete",
      path: `${BASE}/:integration_id`,
      tag: TAG,
      scope: deleteIntegration.scope,
      params: IntegrationParams,
      response: { status: 204, description: "Deleted with its monitor rows (our own monitors a native row mirrored stay)." },
      summary: "Delete a monitoring integration",
    },
    async (c, { params }) => {
      await deleteIntegration({ ctx: verbContext(c), input: { id: params.integration_id } });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/:integration_id/test`,
      tag: TAG,
      scope: testIntegration.scope,
      params: IntegrationParams,
      response: { schema: TestOut },
      summary: "Test a monitoring integration",
      description:
        "200 as {ok, message}: one GET of the Uptime Kuma status page (5 s); a failure's message never carries the key or Kuma's answer. Writes nothing.",
    },
    async (c, { params, reply }) => reply(await testIntegration({ ctx: verbContext(c), input: { id: params.integration_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/:integration_id/sync`,
      tag: TAG,
      scope: WRITE_INTEGRATIONS,
      params: IntegrationParams,
      response: { schema: IntegrationOut },
      summary: "Sync a monitoring integration now",
      description:
        "Ours. Reads Uptime Kuma (status page, and /metrics with an API key) and answers the integration: `sync_status` ok, or error with `sync_error` (the monitors are then left as they were).",
    },
    async (c, { params, reply }) => {
      const ctx = verbContext(c);
      await syncMonitoringIntegration(ctx, params.integration_id);
      return reply(await getIntegration({ ctx, input: { id: params.integration_id } }));
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:integration_id/monitors`,
      tag: TAG,
      scope: listIntegrationMonitors.scope,
      params: IntegrationParams,
      response: { schema: IntegrationMonitorArray },
      summary: "One integration's monitors",
      description: 'An array by monitor name. 404 "Integration not found".',
    },
    async (c, { params, reply }) => reply(await listIntegrationMonitors({ ctx: verbContext(c), input: { id: params.integration_id } })),
  );

  route(
    app,
    {
      method: "patch",
      path: `${BASE}/:integration_id/monitors/:monitor_id`,
      tag: TAG,
      scope: linkIntegrationMonitor.scope,
      params: IntegrationMonitorParams,
      body: MonitorLinkBody,
      response: { schema: IntegrationMonitorOut },
      summary: "Link a monitor to a node or a service",
      description:
        '`linked_hardware_id` / `linked_service_id` (null unlinks; left out keeps). A linked node gets a live-metric row (source uptime_kuma) per sync. 404 "Monitor not found" / "Hardware asset not found" / "Service not found".',
    },
    async (c, { params, body, reply }) => {
      const ctx = verbContext(c);
      const id = await linkIntegrationMonitor({
        ctx,
        input: { integrationId: params.integration_id, monitorId: params.monitor_id, ...body },
      });
      return reply(await readIntegrationMonitor(ctx.db, id, ctx.clock.now()));
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:integration_id/monitors/:monitor_id/events`,
      tag: TAG,
      scope: listMonitorEvents.scope,
      params: IntegrationMonitorParams,
      query: MonitorEventListQuery,
      response: { schema: MonitorEventList },
      summary: "A monitor's status changes",
      description: "Ours. The list envelope; `sort` detected_at (default) or id; `q` over new_status and reason.",
    },
    async (c, { params, query, reply }) =>
      reply(
        await listMonitorEvents({
          ctx: verbContext(c),
          input: { ...query, integrationId: params.integration_id, monitorId: params.monitor_id },
        }),
      ),
  );
}
