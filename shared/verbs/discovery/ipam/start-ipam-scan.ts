// POST /ipam/scan/{network_id}: queues an icmp + tcp scan of the network's range (through the jobs' one
// insert) with options.ipam_network_id, so the finish verb applies it to the IPAM data
// (apply-ipam-scan.ts). Refused with 422 naming network_id when the network has no IPv4 cidr, or its
// range exceeds the scan cap or the allowed target set; 409 while a scan of it is open.
import { and, eq, inArray, sql } from "drizzle-orm";
import { MAX_SCAN_ADDRESSES, parseTargets } from "../../../domain/discovery/targets.ts";
import { resolvePorts } from "../../../domain/discovery/ports.ts";
import { networks, scanJobs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ScanJobOut } from "../../../schemas/discovery.ts";
import { defineVerb } from "../../verb.ts";
import { insertScanJob } from "../jobs/create-scan-jobs.ts";
import { presentJob } from "../jobs/present-job.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";

export const IPAM_SCAN_TYPES = ["icmp", "tcp"];

const refuse = (msg: string, type = "value_error") => ApiError.validation([{ loc: ["path", "network_id"], msg, type }]);

export const startIpamScan = defineVerb(
  { scope: WRITE_DISCOVERY },
  async (s, { network_id, allowed }: { network_id: number; allowed: readonly string[] }): Promise<ScanJobOut> => {
    const [network] = await s.tx
      .select({ id: networks.id, name: networks.name, cidr: networks.cidr })
      .from(networks)
      .where(eq(networks.id, network_id))
      .for("share");
    if (!network) throw ApiError.notFound("Network", network_id);
    if (!network.cidr) throw refuse(`Network ${network_id} (${network.name}) has no cidr to scan.`, "missing_cidr");
    if (network.cidr.includes(":"))
      throw refuse(`Network ${network_id}'s cidr ${network.cidr} is IPv6: scans are IPv4 only.`, "invalid_target");
    const targets = parseTargets({ targets: [network.cidr], allowed, cap: MAX_SCAN_ADDRESSES, field: "network_id" });
    if (!targets.ok) throw refuse(`Network ${network_id}'s cidr ${network.cidr}: ${targets.message}`, "invalid_target");
    const ports = resolvePorts({});
    if (!ports.ok) throw new Error(ports.message); // the default preset always resolves
    // One open IPAM scan per network: a second would only race the first's updates.
    await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`ipam-scan:${network_id}`}))`);
    const [open] = await s.tx
      .select({ id: scanJobs.id, status: scanJobs.status })
      .from(scanJobs)
      .where(and(inArray(scanJobs.status, ["queued", "running"]), sql`(${scanJobs.options}->>'ipam_network_id')::int = ${network_id}`))
      .limit(1);
    if (open)
      throw ApiError.conflict(`An IPAM scan of network ${network_id} is already ${open.status} (job ${open.id}).`, { job_id: open.id });
    const job = await insertScanJob(s, {
      source_type: "manual",
      label: `IPAM scan ${network.name}`,
      target_cidr: network.cidr,
      targets: [network.cidr],
      network_ids: [network_id],
      scan_types: IPAM_SCAN_TYPES,
      tcp_ports: ports.value,
      addresses_total: targets.value.count,
      options: { ipam_network_id: network_id },
    });
    return presentJob(job);
  },
);
