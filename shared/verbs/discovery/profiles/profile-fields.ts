// The checks create and PATCH share, against the profile as it would be stored (the reference checks the
// scan-type rule on the merged state): targets (not needed by a docker profile; refused, like ports, by an
// opnsense one, which needs the firewall configured), scan types, ports, nmap available, the agent
// eligible, a 5-field schedule. Every problem is a 422 naming its field, raised
// before anything is written; the answer is the row's values with next_run_at computed.
import type { Db } from "../../../db/database.ts";
import type { discoveryProfiles } from "../../../db/schema/index.ts";
import type { ProfileCreateInput } from "../../../schemas/discovery.ts";
import { UNTARGETED_SCAN_TYPES } from "../../../domain/discovery/scan-types.ts";
import { checkFirewall, FIREWALL_NO_TARGETS } from "../jobs/firewall-job.ts";
import { checkAgent, checkNmapArguments, checkPorts, checkScanTypes, checkTargets, checkTools, invalid } from "../jobs/scan-checks.ts";
import { cronProblem, profileNextRun } from "./next-run.ts";
import type { ProfileRow } from "./profile-row.ts";

export type ProfileValues = Omit<typeof discoveryProfiles.$inferInsert, "id" | "created_at" | "updated_at" | "snmp_community">;

/** The body's fields over the stored profile (or the defaults), `cidr` and `targets` kept in step. */
export function mergeProfile(body: Partial<ProfileCreateInput>, stored: ProfileRow | null): ProfileValues {
  const base: ProfileValues = stored
    ? (({ id: _i, created_at: _c, updated_at: _u, snmp_community: _s, ...rest }) => rest)(stored)
    : { name: body.name ?? "", targets: [], exclude: [], vlan_ids: [], scan_types: [], tcp_ports: [], enabled: true };
  const { snmp_community: _secret, cidr, targets, ...plain } = body;
  const merged: ProfileValues = { ...base, ...Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined)) };
  if (targets !== undefined) {
    merged.targets = targets;
    merged.cidr = cidr !== undefined ? cidr : (targets[0] ?? null);
  } else if (cidr !== undefined) {
    merged.cidr = cidr;
    merged.targets = cidr ? [cidr] : [];
  }
  return merged;
}

/** Where the body gave the targets, so a 422 names what the caller sent (`cidr`, or `targets[n]`). */
export const targetsField = (body: { cidr?: unknown; targets?: unknown }): "cidr" | "targets" =>
  body.targets === undefined && body.cidr !== undefined ? "cidr" : "targets";

export async function checkProfile(
  db: Db,
  p: ProfileValues,
  allowed: readonly string[],
  now: Date,
  typesGiven: boolean,
  field: "cidr" | "targets" = "targets",
): Promise<ProfileValues> {
  const agentId = p.scan_agent_id ?? null;
  const scanTypes = checkScanTypes(typesGiven || (p.scan_types?.length ?? 0) > 0 ? (p.scan_types ?? []) : null, agentId);
  if (scanTypes.includes("lldp"))
    throw invalid("scan_types", "Scan type 'lldp' reads chosen nodes: start it with POST /discovery/lldp-enrich.", "scan_type");
  const untargeted = scanTypes.some((t) => UNTARGETED_SCAN_TYPES.has(t));
  const targets = p.targets ?? [];
  if (scanTypes.includes("opnsense")) {
    if (targets.length > 0) throw invalid(field, FIREWALL_NO_TARGETS, "not_applicable");
    if ((p.tcp_ports ?? []).length > 0) throw invalid("tcp_ports", FIREWALL_NO_TARGETS, "not_applicable");
    await checkFirewall(db);
  }
  if (!untargeted && targets.length === 0)
    throw invalid("targets", "Give cidr or targets: a profile never scans an unbounded range.", "missing");
  const set = targets.length > 0 ? checkTargets(targets, p.exclude ?? [], allowed, field, field === "cidr") : null;
  checkPorts({ tcp_ports: p.tcp_ports, ports_preset: p.ports_preset });
  const nmap_arguments = checkNmapArguments(p.nmap_arguments);
  await checkTools(db, scanTypes);
  if (agentId !== null) await checkAgent(db, agentId, set, now);
  if (p.schedule_cron) {
    const problem = cronProblem(p.schedule_cron);
    if (problem) throw invalid("schedule_cron", problem, "cron");
  }
  const schedule_cron = p.schedule_cron || null;
  const next_run_at = profileNextRun({ schedule_cron, enabled: p.enabled ?? true, paused_at: p.paused_at ?? null }, now);
  return {
    ...p,
    nmap_arguments,
    scan_types: scanTypes,
    schedule_cron,
    next_run_at,
    tcp_ports: [...new Set(p.tcp_ports ?? [])].sort((a, b) => a - b),
  };
}
