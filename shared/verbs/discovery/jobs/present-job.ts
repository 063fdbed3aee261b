// A scan_jobs row as the API and /discovery/stream answer it (reference ScanJobOut, plus ours: the
// targets, ports and address counters, and scan_types as an array beside the original's JSON string).
// The sealed SNMP community never leaves: only whether one is set.
import type { scanJobs } from "../../../db/schema/discovery.ts";
import type { ScanJobOut } from "../../../schemas/discovery.ts";

export type ScanJobRow = typeof scanJobs.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentJob(row: ScanJobRow): ScanJobOut {
  return {
    id: row.id,
    profile_id: row.profile_id,
    scan_agent_id: row.scan_agent_id,
    source_type: row.source_type,
    label: row.label,
    target_cidr: row.target_cidr,
    targets: row.targets,
    exclude: row.exclude,
    vlan_ids: row.vlan_ids,
    network_ids: row.network_ids,
    scan_types: row.scan_types,
    scan_types_json: JSON.stringify(row.scan_types),
    tcp_ports: row.tcp_ports,
    status: row.status,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    addresses_total: row.addresses_total,
    addresses_done: row.addresses_done,
    hosts_found: row.hosts_found,
    hosts_new: row.hosts_new,
    hosts_updated: row.hosts_updated,
    hosts_conflict: row.hosts_conflict,
    error_text: row.error_text,
    error_reason: row.error_reason,
    triggered_by: row.triggered_by,
    progress_phase: row.progress_phase,
    progress_message: row.progress_message,
    snmp_community_set: row.snmp_community != null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
