// [discovery] LLDP enrichment: POST /discovery/lldp-enrich queues an lldp job over the chosen nodes,
// GET /discovery/lldp-jobs/{job_id}/results lists the neighbours it read, POST .../apply turns chosen ones
// into hardware connections (stubs for neighbours no node matched).
import type { Hono } from "hono";
import { allowedTargetsFromEnv } from "../../../shared/domain/discovery/targets.ts";
import {
  LldpApplied,
  LldpApplyBody,
  LldpEnrichBody,
  LldpJobCreated,
  LldpJobParams,
  LldpResultsOut,
} from "../../../shared/schemas/discovery-lldp.ts";
import { applyLldp } from "../../../shared/verbs/discovery/lldp/apply-lldp.ts";
import { lldpResults } from "../../../shared/verbs/discovery/lldp/lldp-results.ts";
import { startLldpEnrich } from "../../../shared/verbs/discovery/lldp/start-lldp.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/discovery";

export function lldpRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: `${BASE}/lldp-enrich`,
      tag: "discovery",
      scope: startLldpEnrich.scope,
      body: LldpEnrichBody,
      response: { schema: LldpJobCreated },
      summary: "Read the LLDP neighbours of hardware nodes over SNMP",
      description:
        'Queues a scan job of type `lldp`: the sidecar asks each node at its IPv4 ip_address (inside the allowed targets) for LLDP-MIB (lldpRemTable, lldpRemManAddrTable, lldpLocPortTable) with `snmp_community` (default public, sealed by the vault into the job, never returned) on `snmp_port` (default 161). Nodes without a usable address are skipped (listed in the job\'s log); 400 "No valid IP addresses for selected nodes" when none is left.',
      errors: [400, 503],
    },
    async (c, { body, reply }) => {
      const deps = c.get("deps");
      const allowed = allowedTargetsFromEnv({ SVC_DISCOVERY_ALLOWED_TARGETS: deps.config.SVC_DISCOVERY_ALLOWED_TARGETS });
      return reply(await startLldpEnrich({ ctx: verbContext(c), input: { ...body, allowed } }));
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/lldp-jobs/:job_id/results`,
      tag: "discovery",
      scope: lldpResults.scope,
      params: LldpJobParams,
      response: { schema: LldpResultsOut },
      summary: "The LLDP neighbours an enrichment job read",
      description:
        "Per neighbour: the source node and its local port, the remote chassis id, port, system name, management address and capabilities, and the inventory node it matched (by management address, then system name, then chassis MAC); `is_new_stub` when none did. 404 for a job that is not an LLDP job.",
      errors: [404],
    },
    async (c, { params, reply }) => reply(await lldpResults({ ctx: verbContext(c), input: { job_id: params.job_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/lldp-jobs/:job_id/apply`,
      tag: "discovery",
      scope: applyLldp.scope,
      params: LldpJobParams,
      body: LldpApplyBody,
      response: { schema: LldpApplied },
      summary: "Record chosen LLDP neighbours as hardware connections",
      description:
        "Each `{source_scan_result_id, neighbor_index}` becomes an ethernet hardware connection between the source node and the neighbour's node; a neighbour no node matched first becomes a stub hardware node (role from its capabilities: bridge -> switch, router -> router, wlanAccessPoint -> access_point, else misc). A link already recorded in either direction is counted in `edges_existing`, not doubled. One audited transaction; a pair the job does not have answers 422 naming it and writes nothing.",
      errors: [404],
    },
    async (c, { params, body, reply }) =>
      reply(await applyLldp({ ctx: verbContext(c), input: { job_id: params.job_id, connections: body.connections } })),
  );
}
