// An `opnsense` scan (POST /discovery/scan {scan_types: ["opnsense"]}, or a profile of that type): it reads
// the configured firewall's ARP table and DHCP leases, so it takes no targets, ports or scan options
// (each is a 422 naming the field rather than silently ignored), and a firewall not configured yet is a
// 422 now instead of a job that can only fail.
import type { Db } from "../../../db/database.ts";
import type { ScanRequest } from "../../../schemas/discovery.ts";
import { firewallMissing } from "../../settings/firewall-api.ts";
import type { NewScanJob } from "./new-scan-job.ts";
import { checkScanTypes, invalid } from "./scan-checks.ts";

/** Fields of a scan request that mean nothing to a firewall read. */
const SWEEP_FIELDS = [
  "cidr",
  "cidrs",
  "targets",
  "exclude",
  "tcp_ports",
  "ports_preset",
  "nmap_arguments",
  "snmp_community",
  "host_timeout_ms",
] as const;

export const FIREWALL_NO_TARGETS =
  "Scan type 'opnsense' reads the firewall's ARP table and DHCP leases: it takes no targets, ports or scan options";

/** The firewall is configured (address and key pair), or a 422 at `field` saying what is missing. */
export async function checkFirewall(db: Db, field = "scan_types"): Promise<void> {
  const missing = await firewallMissing(db);
  if (missing)
    throw invalid(
      field,
      `Scan type 'opnsense' reads the firewall set with PATCH /settings/firewall: ${missing}`,
      "firewall_not_configured",
    );
}

export async function planFirewallJob(db: Db, body: ScanRequest): Promise<NewScanJob> {
  const scanTypes = checkScanTypes(body.scan_types, body.scan_agent_id ?? null);
  const given = SWEEP_FIELDS.find((k) => {
    const value = body[k];
    return value != null && value !== "" && !(Array.isArray(value) && value.length === 0);
  });
  if (given) throw invalid(given, FIREWALL_NO_TARGETS, "not_applicable");
  await checkFirewall(db);
  return {
    source_type: "manual",
    label: body.label ?? "OPNsense ARP table and DHCP leases",
    target_cidr: null,
    targets: [],
    exclude: [],
    vlan_ids: body.vlan_ids ?? [],
    scan_types: scanTypes,
    tcp_ports: [],
    options: {},
    scan_agent_id: null,
    addresses_total: 0,
  };
}
