// [discovery] the hypervisor discover runs: GET /discovery/proxmox-runs and /proxmox-runs/{run_id}
// (spec/catalogue.tsv, group discovery: a plain array, limit 1..500 default 100; plus our
// rows_written and vanished).
import * as v from "valibot";
import { IntFilter, limitParam } from "./list-query.ts";

export const HvRunListQuery = v.object({ integration_id: IntFilter, limit: limitParam({ default: 100, max: 500 }) });

/** Any whole number: one past the integer range names no run and answers the reference's 404 sentence (read-runs.ts). */
export const HvRunParams = v.object({
  run_id: v.pipe(v.string(), v.regex(/^\d{1,20}$/, "Must be a positive integer id."), v.transform(Number)),
});

export const HvRunOut = v.object({
  id: v.number(),
  integration_id: v.nullable(v.number()),
  status: v.picklist(["running", "completed", "failed"]),
  trigger: v.picklist(["manual", "scheduled"]),
  triggered_by: v.nullable(v.string()),
  started_at: v.string(),
  completed_at: v.nullable(v.string()),
  cluster_name: v.nullable(v.string()),
  nodes_imported: v.number(),
  vms_imported: v.number(),
  cts_imported: v.number(),
  networks_imported: v.number(),
  storage_imported: v.number(),
  /** Inventory rows the run inserted or changed (0 when nothing changed at the source). */
  rows_written: v.number(),
  /** What the previous run saw and this one did not. */
  vanished: v.array(v.record(v.string(), v.unknown())),
  errors: v.array(v.string()),
  /** The audit entry of the run's import (null while running, or when it wrote nothing). */
  audit_id: v.nullable(v.number()),
});
export const HvRunList = v.array(HvRunOut);
