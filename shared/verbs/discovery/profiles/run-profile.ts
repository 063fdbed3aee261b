// A profile's run: POST /discovery/profiles/{id}/run (source "manual") and the schedule (source
// "scheduled") make the same job from the profile as stored, checked again (the allowed set, the cap, the
// agent and the tools may have changed since it was written). The job carries no SNMP community of its
// own: the runner opens the profile's (jobs/snmp-community.ts).
import { eq } from "drizzle-orm";
import { discoveryProfiles } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ScanJobOut } from "../../../schemas/discovery.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { insertScanJob, refuseOverOpenLimit } from "../jobs/create-scan-jobs.ts";
import type { NewScanJob } from "../jobs/new-scan-job.ts";
import { presentJob, type ScanJobRow } from "../jobs/present-job.ts";
import { checkAgent, checkPorts, checkScanTypes, checkTargets, checkTools } from "../jobs/scan-checks.ts";
import { checkFirewall } from "../jobs/firewall-job.ts";
import { profileNextRun } from "./next-run.ts";
import { type ProfileRow, requireProfile } from "./profile-row.ts";

/** The job a profile's run makes (every check of a scan request again); throws the 422 of the first problem. */
export async function profileJobFields(
  s: VerbScope,
  p: ProfileRow,
  allowed: readonly string[],
  source: "manual" | "scheduled",
): Promise<NewScanJob> {
  const agentId = p.scan_agent_id;
  const scanTypes = checkScanTypes(p.scan_types, agentId);
  const set = p.targets.length > 0 ? checkTargets(p.targets, p.exclude, allowed, "targets") : null;
  const ports = checkPorts({ tcp_ports: p.tcp_ports, ports_preset: p.ports_preset });
  await checkTools(s.tx, scanTypes);
  if (scanTypes.includes("opnsense")) await checkFirewall(s.tx);
  if (agentId !== null) await checkAgent(s.tx, agentId, set, s.now);
  const options: Record<string, unknown> = {};
  if (p.ports_preset && p.tcp_ports.length === 0) options.ports_preset = p.ports_preset;
  if (scanTypes.includes("nmap") && p.nmap_arguments) options.nmap_arguments = p.nmap_arguments;
  if (scanTypes.includes("snmp")) Object.assign(options, { snmp_port: p.snmp_port, snmp_version: p.snmp_version });
  if (scanTypes.includes("docker")) {
    Object.assign(options, {
      docker_socket_path: p.docker_socket_path,
      docker_network_types: p.docker_network_types,
      docker_port_scan: p.docker_port_scan,
    });
  }
  return {
    source_type: source,
    profile_id: p.id,
    label: p.name,
    target_cidr: set?.targets[0] ?? p.cidr,
    targets: set?.targets ?? [],
    exclude: set?.exclude ?? [],
    vlan_ids: p.vlan_ids,
    scan_types: scanTypes,
    tcp_ports: ports,
    options,
    scan_agent_id: agentId,
    addresses_total: set?.count ?? 0,
    ...(source === "scheduled" ? { triggered_by: "scheduler", triggered_by_user_id: null } : {}),
  };
}

/** Inserts the profile's job and records the run on the profile (last_run, the next scheduled run). */
export async function startProfileRun(
  s: VerbScope,
  p: ProfileRow,
  allowed: readonly string[],
  source: "manual" | "scheduled",
): Promise<ScanJobRow> {
  const fields = await profileJobFields(s, p, allowed, source);
  if (fields.scan_agent_id == null) await refuseOverOpenLimit(s);
  const job = await insertScanJob(s, fields);
  const next_run_at = profileNextRun(p, s.now);
  await s.tx.update(discoveryProfiles).set({ last_run: s.now, next_run_at, updated_at: s.now }).where(eq(discoveryProfiles.id, p.id));
  return job;
}

export const runProfile = defineVerb<{ id: number; allowed: readonly string[] }, ScanJobOut>(
  { scope: WRITE_DISCOVERY },
  async (s, { id, allowed }) => {
    const profile = await requireProfile(s.tx, id, true);
    if (!profile.enabled) throw new ApiError("BAD_REQUEST", "Profile is disabled");
    return presentJob(await startProfileRun(s, profile, allowed, "manual"));
  },
);
