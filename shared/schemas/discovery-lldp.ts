// [discovery] LLDP enrichment (spec/catalogue.tsv, group discovery): the request, the neighbours a job read,
// and the apply of chosen ones as hardware connections.
import * as v from "valibot";
import { IdParam, Ref } from "./fields.ts";

export const LldpEnrichBody = v.strictObject({
  hardware_ids: v.pipe(v.array(Ref), v.minLength(1, "Select at least one node."), v.maxLength(256, "At most 256 nodes per job.")),
  snmp_community: v.optional(v.pipe(v.string(), v.minLength(1, "Must not be empty."), v.maxLength(128)), "public"),
  snmp_port: v.optional(
    v.pipe(
      v.number(),
      v.integer("Must be a whole number."),
      v.minValue(1, "Must be 1 to 65535."),
      v.maxValue(65535, "Must be 1 to 65535."),
    ),
    161,
  ),
  snmp_version: v.optional(v.picklist(["1", "2c"], "Must be 1 or 2c."), "2c"),
});

export const LldpJobCreated = v.object({ job_id: v.number() });

export const LldpJobParams = IdParam("job_id");

export const LldpNeighborOut = v.object({
  id: v.number(),
  source_scan_result_id: v.nullable(v.number()),
  neighbor_index: v.number(),
  source_hardware_id: v.nullable(v.number()),
  source_hardware_name: v.nullable(v.string()),
  local_port_desc: v.nullable(v.string()),
  remote_chassis_id: v.nullable(v.string()),
  remote_port_desc: v.nullable(v.string()),
  remote_sys_name: v.nullable(v.string()),
  remote_mgmt_ip: v.nullable(v.string()),
  remote_caps: v.array(v.string()),
  remote_hardware_id: v.nullable(v.number()),
  remote_hardware_name: v.nullable(v.string()),
  /** Applying it creates a stub node (no inventory node matched the neighbour). */
  is_new_stub: v.boolean(),
  applied_at: v.nullable(v.string()),
});

export const LldpResultsOut = v.object({ job_id: v.number(), status: v.string(), neighbors: v.array(LldpNeighborOut) });

export const LldpApplyBody = v.strictObject({
  connections: v.pipe(
    v.array(
      v.strictObject({ source_scan_result_id: Ref, neighbor_index: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000)) }),
    ),
    v.minLength(1, "Choose at least one connection."),
    v.maxLength(1000, "At most 1000 connections at once."),
  ),
});

export const LldpApplied = v.object({ edges_created: v.number(), stubs_created: v.number(), edges_existing: v.number() });
