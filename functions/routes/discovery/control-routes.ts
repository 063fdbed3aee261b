// [discovery] control: status, the scan tools' readiness (admin), the fleet-wide pause and resume, and the
// vendor catalogue of the knowledge base.
import type { Hono } from "hono";
import { DiscoveryStatusOut, PausedOut, ReadinessOut, VendorCatalogOut } from "../../../shared/schemas/discovery.ts";
import { setDiscoveryPaused } from "../../../shared/verbs/discovery/control/pause-discovery.ts";
import { discoveryReadiness, discoveryStatus } from "../../../shared/verbs/discovery/control/status.ts";
import { vendorCatalog } from "../../../shared/verbs/discovery/control/vendor-catalog.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/discovery";

export function controlRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${BASE}/status`,
      tag: "discovery",
      scope: discoveryStatus.scope,
      response: { schema: DiscoveryStatusOut },
      summary: "Discovery status",
      description:
        "Open jobs (at most 20, newest first), results pending review, the last completed scan, the next scheduled profile run, the pause, and what the worker's probe found (net_raw_capable, docker_available).",
    },
    async (c, { reply }) => reply(await discoveryStatus({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/readiness`,
      tag: "discovery",
      scope: discoveryReadiness.scope,
      response: { schema: ReadinessOut },
      summary: "Readiness of the scan tools",
      description:
        'As the discovery worker last probed them (icmp, tcp, dns, arp, nmap, snmp, docker). `state` is "unknown", every capability "unknown", until a worker has stored a probe.',
    },
    async (c, { reply }) => reply(await discoveryReadiness({ ctx: verbContext(c) })),
  );

  for (const [action, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    route(
      app,
      {
        method: "post",
        path: `${BASE}/${action}`,
        tag: "discovery",
        scope: setDiscoveryPaused.scope,
        response: { schema: PausedOut },
        summary: paused ? "Pause all discovery" : "Resume discovery",
        description: paused
          ? "Fleet-wide hold: no queued job is claimed, no agent job dispatched and no scheduled run started until resumed; running jobs go on."
          : "Ends the fleet-wide hold.",
      },
      async (c, { reply }) => reply(await setDiscoveryPaused({ ctx: verbContext(c), input: { paused } })),
    );
  }

  route(
    app,
    {
      method: "get",
      path: `${BASE}/vendor-catalog`,
      tag: "discovery",
      scope: vendorCatalog.scope,
      response: { schema: VendorCatalogOut },
      summary: "Vendors of the knowledge base",
      description:
        "Every vendor named by the knowledge base's OUI prefixes and hostname patterns, with a stable key, its entry counts and the device types its patterns give.",
    },
    async (c, { reply }) => reply(await vendorCatalog({ ctx: verbContext(c) })),
  );
}
