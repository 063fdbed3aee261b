// A discovery profile by id (404 "Profile not found" naming it) and as the API answers it: the reference's
// DiscoveryProfileOut plus ours (targets, exclude, ports, next_run_at); the SNMP community only as a flag.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { discoveryProfiles } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { DiscoveryProfileOut } from "../../../schemas/discovery.ts";

export type ProfileRow = typeof discoveryProfiles.$inferSelect;

export async function requireProfile(db: Db, id: number, lock = false): Promise<ProfileRow> {
  const query = db.select().from(discoveryProfiles).where(eq(discoveryProfiles.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", `Profile not found: there is no discovery profile ${id}.`);
  return row;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentProfile(r: ProfileRow): DiscoveryProfileOut {
  return {
    id: r.id,
    name: r.name,
    cidr: r.cidr,
    targets: r.targets,
    exclude: r.exclude,
    scan_agent_id: r.scan_agent_id,
    managed_by: r.managed_by,
    paused_at: iso(r.paused_at),
    vlan_ids: r.vlan_ids,
    scan_types: r.scan_types,
    tcp_ports: r.tcp_ports,
    ports_preset: r.ports_preset,
    nmap_arguments: r.nmap_arguments,
    snmp_version: r.snmp_version,
    snmp_port: r.snmp_port,
    snmp_community_set: r.snmp_community != null,
    docker_network_types: r.docker_network_types,
    docker_port_scan: r.docker_port_scan,
    docker_socket_path: r.docker_socket_path,
    schedule_cron: r.schedule_cron,
    enabled: r.enabled,
    last_run: iso(r.last_run),
    next_run_at: iso(r.next_run_at),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** What an audit entry keeps of a profile: everything answered, never the sealed community. */
export const auditProfile = (r: ProfileRow) => presentProfile(r);
