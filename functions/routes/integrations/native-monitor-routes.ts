// [integrations] the built-in monitors: GET/POST /integrations/native/monitors and DELETE
// /integrations/native/monitors/{id} (spec/catalogue.tsv, group integrations). Registered by monitoring-routes.ts
// before /integrations/{id}.
import type { Hono } from "hono";
import {
  IntegrationMonitorArray,
  IntegrationMonitorOut,
  MonitorParams,
  NativeMonitorCreate,
} from "../../../shared/schemas/integrations.ts";
import {
  createNativeMonitor,
  deleteNativeMonitor,
  listNativeMonitors,
  readNativeMonitor,
} from "../../../shared/verbs/integrations/monitoring/native-monitors.ts";
import { WRITE_INTEGRATIONS } from "../../../shared/verbs/integrations/scopes.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/integrations/native/monitors";

export function nativeMonitorRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "integrations",
      scope: listNativeMonitors.scope,
      response: { schema: IntegrationMonitorArray },
      summary: "Built-in monitors",
      description:
        'An array by name (empty until the first native monitor creates the singleton integration "Built-in Monitors"). Status, last check, latency and uptime are the monitor\'s own.',
    },
    async (c, { reply }) => reply(await listNativeMonitors({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: "integrations",
      scope: WRITE_INTEGRATIONS,
      body: NativeMonitorCreate,
      response: { status: 201, schema: IntegrationMonitorOut },
      errors: [409],
      summary: "Add a built-in monitor for a node or a service",
      description:
        'Creates one of our monitors (also needs write:monitors) and its mirror row. Probe derived when not given: a service\'s url → http, its ip → tcp on its first port, a node → icmp on its address. 409 "Monitor already exists for this entity"; 422 "Cannot derive probe target — entity has no IP address, hostname, or URL."; 404 for a missing entity.',
    },
    async (c, { body, reply }) => {
      const ctx = verbContext(c);
      const id = await createNativeMonitor({ ctx, input: { body } });
      return reply(await readNativeMonitor({ ctx, input: { id } }), 201);
    },
  );

  route(
    app,
    {
      method: "delete",
      path: `${BASE}/:monitor_id`,
      tag: "integrations",
      scope: deleteNativeMonitor.scope,
      params: MonitorParams,
      response: { status: 204, description: "The built-in monitor and our monitor behind it are deleted." },
      summary: "Delete a built-in monitor",
      description: 'Also needs delete:monitors. 404 "Monitor not found".',
    },
    async (c, { params }) => {
      await deleteNativeMonitor({ ctx: verbContext(c), input: { id: params.monitor_id } });
      return c.body(null, 204);
    },
  );
}
