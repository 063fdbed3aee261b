// [discovery] results and merges: request and response shapes (spec/catalogue.tsv, group discovery, with docs/architecture.md, API contracts:
// the list envelope for result lists, `open_ports` as an array beside the reference's `open_ports_json`
// string). Every merge answers `audit_id`: the audit entry POST /discovery/merges/{audit_id}/undo reverses.
import * as v from "valibot";
import { IdParam, Name, OptionalText, Ref } from "./fields.ts";
import { IntFilter, listQuery, listResponse } from "./list-query.ts";

export const RESULT_STATES = ["new", "matched", "conflict"] as const;
export const MERGE_STATUSES = ["pending", "accepted", "merged", "rejected", "auto_updated"] as const;
const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);
const Str = v.nullable(v.string());
const Num = v.nullable(v.number());

// ---- responses ----

const OpenPort = v.looseObject({ port: v.number(), protocol: v.string() });

export const ScanResultOut = v.object({
  id: v.number(),
  scan_job_id: v.number(),
  ip_address: v.string(),
  mac_address: Str,
  hostname: Str,
  open_ports: v.array(OpenPort),
  open_ports_json: v.pipe(v.string(), v.description("open_ports as a JSON string (the reference's field)")),
  vendor: Str,
  model: v.pipe(Str, v.description("The model a device announced (mDNS TXT records, a UPnP description): the passive listener's")),
  serial_number: v.pipe(Str, v.description("The serial number a device announced (a UPnP description, TXT records)")),
  os_family: Str,
  os_vendor: Str,
  os_accuracy: Num,
  snmp_sys_name: Str,
  snmp_sys_descr: Str,
  vlan_id: Num,
  network_id: Num,
  device_type: Str,
  device_confidence: Num,
  rtt_ms: Num,
  sources: v.array(v.string()),
  state: v.string(),
  conflicts: v.array(v.record(v.string(), v.unknown())),
  conflicts_json: v.string(),
  matched_entity_type: Str,
  matched_entity_id: Num,
  matched_by: v.pipe(Str, v.description("mac | ip | hostname")),
  discovery_agent_id: Num,
  merge_status: v.string(),
  reviewed_by: Str,
  reviewed_at: Str,
  merge_audit_id: v.pipe(Num, v.description("The audit entry of the merge that consumed this result")),
  created_at: v.string(),
});
export type ScanResultOutT = v.InferOutput<typeof ScanResultOut>;

/** results?with_inference=true: what suggest would make of the result. */
export const InferredScanResultOut = v.object({
  ...ScanResultOut.entries,
  inferred_vendor: Str,
  inferred_role: Str,
  inferred_icon_slug: Str,
  confidence: v.number(),
  signals_used: v.array(v.string()),
  exists_in_hardware: v.boolean(),
  existing_hardware_id: Num,
  existing_role: Str,
  is_new: v.boolean(),
});

export const ScanResultList = listResponse(v.union([InferredScanResultOut, ScanResultOut]));

// ---- requests ----

const SORTS = ["id", "ip_address", "created_at", "state", "merge_status"] as const;
const BoolQuery = v.optional(
  v.pipe(
    oneOf(["true", "false"] as const),
    v.transform((s) => s === "true"),
  ),
  "false",
);

export const JobIdParams = IdParam("job_id");
export const ResultIdParams = IdParam("result_id");
export const AuditIdParams = IdParam("audit_id");

export const JobResultsQuery = v.object({
  ...listQuery(SORTS, { state: v.optional(oneOf(RESULT_STATES)), merge_status: v.optional(oneOf(MERGE_STATUSES)) }, "id").entries,
  direction: v.optional(oneOf(["asc", "desc"] as const), "desc"),
  with_inference: BoolQuery,
});

export const ResultsQuery = v.object({
  ...listQuery(SORTS, { job_id: IntFilter, agent_id: IntFilter }, "id").entries,
  direction: v.optional(oneOf(["asc", "desc"] as const), "desc"),
  status: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (s) => s === "all" || (MERGE_STATUSES as readonly string[]).includes(s),
        `Must be all or one of: ${MERGE_STATUSES.join(", ")}.`,
      ),
    ),
    "pending",
  ),
});

/** Fields a merge may set on the hardware it creates or updates. */
export const MergeOverrides = v.strictObject(
  {
    name: v.optional(Name),
    role: OptionalText(100),
    vendor: OptionalText(100),
    model: OptionalText(100),
    notes: OptionalText(10_000),
    vendor_catalog_key: OptionalText(200),
    model_catalog_key: OptionalText(200),
  },
  "Unknown override; allowed: name, role, vendor, model, notes, vendor_catalog_key, model_catalog_key.",
);
export type MergeOverridesT = v.InferOutput<typeof MergeOverrides>;

export const MergeBody = v.strictObject({
  action: oneOf(["accept", "reject"] as const),
  entity_type: v.optional(v.nullable(oneOf(["hardware"] as const))),
  overrides: v.optional(MergeOverrides, {}),
});

const ResultIds = v.pipe(v.array(Ref), v.minLength(1, "Give at least one result id."), v.maxLength(5000, "At most 5000 results at once."));

export const BulkMergeBody = v.strictObject({ result_ids: ResultIds, action: oneOf(["accept", "reject"] as const) });
export const SuggestBody = v.strictObject({ result_ids: ResultIds });

export const MergeOut = v.object({
  audit_id: Num,
  rejected: v.optional(v.boolean()),
  updated: v.optional(v.boolean()),
  entity_type: v.optional(v.string()),
  entity_id: v.optional(v.number()),
  ports: v.optional(v.array(OpenPort)),
});

export const BulkMergeOut = v.object({ accepted: v.number(), rejected: v.number(), skipped: v.number(), audit_id: Num });

export const SuggestionOut = v.object({
  result_id: v.number(),
  ip_address: v.string(),
  name: v.string(),
  vendor: Str,
  role: Str,
  icon_slug: Str,
  confidence: v.number(),
  signals_used: v.array(v.string()),
  existing_hardware_id: Num,
  action: v.pipe(
    oneOf(["create", "update", "review"] as const),
    v.description("create a node, update the matched one, or review a conflict"),
  ),
});
export const SuggestOut = v.object({ suggestions: v.array(SuggestionOut) });

export const UndoOut = v.object({
  audit_id: v.number(),
  undone: v.boolean(),
  undo_audit_id: Num,
  results_reset: v.number(),
  rows_deleted: v.number(),
  rows_restored: v.number(),
});

export const BatchImportBody = v.strictObject({
  items: v.pipe(
    v.array(v.strictObject({ scan_result_id: Ref, overrides: v.optional(MergeOverrides, {}) })),
    v.minLength(1, "Give at least one item."),
    v.maxLength(5000, "At most 5000 items at once."),
  ),
});
export const ImportAsNetworkBody = v.strictObject({
  items: BatchImportBody.entries.items,
  map_id: v.optional(v.nullable(Ref)),
  environment_id: v.optional(v.nullable(Ref)),
});

const Imported = v.object({
  id: v.number(),
  ip: v.string(),
  position: v.nullable(v.object({ x: v.number(), y: v.number() })),
  scan_result_id: v.number(),
});
const ImportConflict = v.object({ scan_result_id: v.number(), ip: v.nullable(v.string()), mac: Str, reason: v.string() });
export const BatchImportOut = v.object({
  created: v.array(Imported),
  updated: v.array(Imported),
  conflicts: v.array(ImportConflict),
  skipped: v.array(v.number()),
  audit_id: Num,
});
export const ImportAsNetworkOut = v.object({
  created: v.array(Imported),
  updated: v.array(Imported),
  placeholders: v.array(v.object({ id: v.number(), subnet: v.string() })),
  edges_created: v.number(),
  conflicts: v.array(ImportConflict),
  audit_id: Num,
});

const Cidr = v.pipe(v.string(), v.trim(), v.maxLength(64));
export const EnhancedBulkMergeBody = v.strictObject({
  result_ids: ResultIds,
  cluster: v.optional(
    v.nullable(
      v.strictObject({ name: Name, description: OptionalText(2000), environment: OptionalText(100), location: OptionalText(200) }),
    ),
  ),
  network: v.optional(
    v.nullable(
      v.strictObject({
        name: v.optional(v.nullable(Name)),
        cidr: v.optional(v.nullable(Cidr)),
        vlan_id: v.optional(v.nullable(v.number())),
        gateway: v.optional(v.nullable(Cidr)),
        description: OptionalText(2000),
        existing_id: v.optional(v.nullable(Ref)),
      }),
    ),
  ),
  assignments: v.optional(
    v.array(
      v.strictObject({
        result_id: Ref,
        vendor: OptionalText(100),
        vendor_catalog_key: OptionalText(200),
        model_catalog_key: OptionalText(200),
        vendor_icon_slug: OptionalText(200),
        role: OptionalText(100),
        name: v.optional(v.nullable(Name)),
      }),
    ),
    [],
  ),
  create_services: v.optional(v.boolean(), false),
});

export const EnhancedBulkMergeOut = v.object({
  merged: v.number(),
  skipped: v.number(),
  created: v.object({ clusters: v.number(), networks: v.number(), services: v.number() }),
  hardware_ids: v.array(v.number()),
  errors: v.array(v.string()),
  audit_id: Num,
});
