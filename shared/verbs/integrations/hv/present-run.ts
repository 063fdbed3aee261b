// A hypervisor discover run as GET /discovery/proxmox-runs answers it (reference 4 "Proxmox runs", plus
// our rows_written and vanished).
import type { hvDiscoverRuns } from "../../../db/schema/index.ts";

export function presentHvRun(r: typeof hvDiscoverRuns.$inferSelect) {
  return {
    id: r.id,
    integration_id: r.integration_id,
    status: r.status as "running" | "completed" | "failed",
    trigger: r.trigger as "manual" | "scheduled",
    triggered_by: r.triggered_by,
    started_at: r.started_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
    cluster_name: r.cluster_name,
    nodes_imported: r.nodes_imported,
    vms_imported: r.vms_imported,
    cts_imported: r.cts_imported,
    networks_imported: r.networks_imported,
    storage_imported: r.storage_imported,
    rows_written: r.rows_written,
    vanished: r.vanished,
    errors: r.errors,
    audit_id: r.audit_id,
  };
}
