// [ipam] POST /ipam/scan/{network_id}: an icmp + tcp scan of a network's range whose findings the finish
// of the job applies to the IPAM data (rate category scan; shared/ratelimit/policy.ts matches the path).
import type { Hono } from "hono";
import { allowedTargetsFromEnv } from "../../../shared/domain/discovery/targets.ts";
import { IpamScanParams } from "../../../shared/schemas/discovery-ipam.ts";
import { ScanJobOut } from "../../../shared/schemas/discovery.ts";
import { startIpamScan } from "../../../shared/verbs/discovery/ipam/start-ipam-scan.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function ipamScanRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/ipam/scan/:network_id",
      tag: "ipam",
      scope: startIpamScan.scope,
      params: IpamScanParams,
      response: { status: 201, schema: ScanJobOut },
      summary: "Scan a network's range and mark the addresses in use in IPAM",
      description:
        "Queues a discovery job (scan types icmp and tcp, the common ports) over the network's cidr with `options.ipam_network_id`. When it completes, every address that answered is recorded in use (a new `allocated` IPAM record, or a `free` record set to `allocated`), and conflicts with the inventory are reported in the job's log (phase `ipam`) and on its results: `unknown_mac` (in use by a MAC no inventory object records), `mac_mismatch`, `marked_free`, and `no_answer` (an address the inventory holds that did not answer). 422 naming network_id when the network has no IPv4 cidr or its range exceeds the scan cap or the allowed targets; 409 while a scan of it is open. Rate category scan.",
      errors: [409, 429],
    },
    async (c, { params, reply }) => {
      const deps = c.get("deps");
      const allowed = allowedTargetsFromEnv({ SVC_DISCOVERY_ALLOWED_TARGETS: deps.config.SVC_DISCOVERY_ALLOWED_TARGETS });
      return reply(await startIpamScan({ ctx: verbContext(c), input: { network_id: params.network_id, allowed } }), 201);
    },
  );
}
