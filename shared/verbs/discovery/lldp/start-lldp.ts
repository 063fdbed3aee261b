// POST /discovery/lldp-enrich: queues an `lldp` job for the chosen hardware nodes. Each node is asked at
// its ip_address (IPv4, inside the allowed target set); the community is sealed into the job's
// snmp_community (never stored in clear, returned or logged). No node with a usable address: 400
// "No valid IP addresses for selected nodes" (the reference's answer), and nothing is written.
import { inArray } from "drizzle-orm";
import { parseAddress } from "../../../domain/cidr-math.ts";
import { parseTargets } from "../../../domain/discovery/targets.ts";
import { hardware } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb } from "../../verb.ts";
import { insertScanJob } from "../jobs/create-scan-jobs.ts";
import { storeJobCommunity } from "../jobs/snmp-community.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { vaultOf } from "../../verb-context.ts";

export interface LldpEnrichInput {
  hardware_ids: number[];
  snmp_community: string;
  snmp_port: number;
  snmp_version: string;
  allowed: readonly string[];
}

export const startLldpEnrich = defineVerb({ scope: WRITE_DISCOVERY }, async (s, input: LldpEnrichInput) => {
  const ids = [...new Set(input.hardware_ids)];
  const rows = await s.tx
    .select({ id: hardware.id, name: hardware.name, ip: hardware.ip_address })
    .from(hardware)
    .where(inArray(hardware.id, ids));
  const nodes: { hardware_id: number; ip_address: string }[] = [];
  const skipped: { hardware_id: number; reason: string }[] = ids
    .filter((id) => !rows.some((r) => r.id === id))
    .map((id) => ({ hardware_id: id, reason: "no such node" }));
  for (const r of rows.sort((a, b) => a.id - b.id)) {
    const ip = r.ip ? parseAddress(r.ip.split("/")[0]!) : undefined;
    if (!ip?.ok || ip.value.version !== 4) {
      skipped.push({ hardware_id: r.id, reason: "no IPv4 address" });
      continue;
    }
    if (!parseTargets({ targets: [ip.text], allowed: input.allowed, cap: 1 }).ok) {
      skipped.push({ hardware_id: r.id, reason: `${ip.text} is outside the allowed targets` });
      continue;
    }
    nodes.push({ hardware_id: r.id, ip_address: ip.text });
  }
  if (nodes.length === 0) throw new ApiError("BAD_REQUEST", "No valid IP addresses for selected nodes", { skipped });
  const job = await insertScanJob(s, {
    source_type: "manual",
    label: `LLDP enrichment of ${nodes.length} node${nodes.length === 1 ? "" : "s"}`,
    targets: nodes.map((n) => n.ip_address),
    scan_types: ["lldp"],
    addresses_total: nodes.length,
    options: {
      hardware_ids: nodes.map((n) => n.hardware_id),
      nodes,
      skipped,
      snmp_port: input.snmp_port,
      snmp_version: input.snmp_version,
    },
  });
  await storeJobCommunity(s, vaultOf(s.ctx), job.id, input.snmp_community);
  return { job_id: job.id };
});
