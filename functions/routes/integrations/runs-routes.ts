// [discovery] the hypervisor discover runs: GET /discovery/proxmox-runs and /discovery/proxmox-runs/{run_id}
// (catalogue group discovery; registered with the integrations, which own the runs).
import type { Hono } from "hono";
import { HvRunList, HvRunListQuery, HvRunOut, HvRunParams } from "../../../shared/schemas/integrations-runs.ts";
import { getHvRun, listHvRuns } from "../../../shared/verbs/integrations/runs/read-runs.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/discovery/proxmox-runs";

export function runsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "discovery",
      scope: listHvRuns.scope,
      query: HvRunListQuery,
      response: { schema: HvRunList },
      summary: "Hypervisor discover runs",
      description:
        "The Proxmox VE discover runs, newest first (an array, as the reference answers): manual ones (POST /integrations/hv/{id}/discover) and scheduled ones (the sidecar's sync every `sync_interval_s`). `integration_id` keeps one provider config's; `limit` 1..500, default 100. Each run has its status (running, completed, failed), counts imported, `rows_written` (0 when nothing changed), what `vanished` since the previous run, and its errors.",
    },
    async (c, { query, reply }) => reply(await listHvRuns({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:run_id`,
      tag: "discovery",
      scope: getHvRun.scope,
      params: HvRunParams,
      response: { schema: HvRunOut },
      summary: "One hypervisor discover run",
      description: '404 "Proxmox discover run not found".',
    },
    async (c, { params, reply }) => reply(await getHvRun({ ctx: verbContext(c), input: { id: params.run_id } })),
  );
}
