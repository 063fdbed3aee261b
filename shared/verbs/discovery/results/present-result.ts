// A scan_results row in its API shape (reference ScanResultOut, docs/architecture.md, API contracts): open ports as an array and
// as the reference's JSON string, conflicts likewise, timestamps as ISO strings.
import type { scanResults } from "../../../db/schema/discovery.ts";
import type { ScanResultOutT } from "../../../schemas/discovery-results.ts";
import { iso } from "../../resources/present.ts";

export type ScanResultRow = typeof scanResults.$inferSelect;

export function presentResult(r: ScanResultRow): ScanResultOutT {
  return {
    id: r.id,
    scan_job_id: r.scan_job_id,
    ip_address: r.ip_address,
    mac_address: r.mac_address,
    hostname: r.hostname,
    open_ports: r.open_ports,
    open_ports_json: JSON.stringify(r.open_ports),
    vendor: r.vendor,
    model: r.model,
    serial_number: r.serial_number,
    os_family: r.os_family,
    os_vendor: r.os_vendor,
    os_accuracy: r.os_accuracy,
    snmp_sys_name: r.snmp_sys_name,
    snmp_sys_descr: r.snmp_sys_descr,
    vlan_id: r.vlan_id,
    network_id: r.network_id,
    device_type: r.device_type,
    device_confidence: r.device_confidence,
    rtt_ms: r.rtt_ms,
    sources: r.sources,
    state: r.state,
    conflicts: r.conflicts,
    conflicts_json: JSON.stringify(r.conflicts),
    matched_entity_type: r.matched_entity_type,
    matched_entity_id: r.matched_entity_id,
    matched_by: r.matched_by,
    discovery_agent_id: r.discovery_agent_id,
    merge_status: r.merge_status,
    reviewed_by: r.reviewed_by,
    reviewed_at: iso(r.reviewed_at),
    merge_audit_id: r.merge_audit_id,
    created_at: iso(r.created_at)!,
  };
}
