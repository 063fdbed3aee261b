import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { IntFilter, inventoryListQuery, TextFilter } from "./list-query.ts";
import { RACK_FACES } from "./racks.ts";
import { IpAddress, Name, OptionalInt, OptionalNumber, OptionalText, patchBody, Ref, RefId, Tags, writeBody } from "./fields.ts";

export const HARDWARE_STATUSES = ["up", "down", "degraded", "maintenance", "unknown"] as const;

const writable = {
  name: Name,
  role: OptionalText(100),
  vendor: OptionalText(100),
  model: OptionalText(100),
  cpu: OptionalText(200),
  cpu_brand: OptionalText(100),
  memory_gb: OptionalNumber(0, 1_000_000),
  ip_address: IpAddress,
  mac_address: OptionalText(64),
  status: v.optional(v.picklist(HARDWARE_STATUSES, `Must be one of: ${HARDWARE_STATUSES.join(", ")}.`)),
  status_override: v.optional(v.nullable(v.picklist(HARDWARE_STATUSES))),
  location: OptionalText(200),
  u_height: OptionalInt(0, 100),
  rack_unit: OptionalInt(0, 100),
  rack_id: RefId,
  rack_face: v.optional(v.nullable(v.picklist(RACK_FACES, `Must be one of: ${RACK_FACES.join(", ")}.`))),
  environment_id: RefId,
  site_id: RefId,
  vendor_catalog_key: OptionalText(200),
  model_catalog_key: OptionalText(200),
  notes: OptionalText(10_000),
  tags: Tags,
  custom_fields: CustomFieldValuesInput,
};
const readOnly = ["environment_name", "effective_status", "status_changed_at", "rack_name"];

export const HardwareCreate = writeBody(writable, readOnly);
export const HardwarePatch = patchBody(writable, readOnly);

export const Hardware = v.object({
  id: v.number(),
  name: v.string(),
  role: v.nullable(v.string()),
  vendor: v.nullable(v.string()),
  model: v.nullable(v.string()),
  cpu: v.nullable(v.string()),
  cpu_brand: v.nullable(v.string()),
  memory_gb: v.nullable(v.number()),
  ip_address: v.nullable(v.string()),
  mac_address: v.nullable(v.string()),
  status: v.string(),
  status_changed_at: v.nullable(v.string()),
  status_override: v.nullable(v.string()),
  effective_status: v.string(),
  location: v.nullable(v.string()),
  u_height: v.nullable(v.number()),
  rack_unit: v.nullable(v.number()),
  rack_id: v.nullable(v.number()),
  rack_name: v.nullable(v.string()),
  rack_face: v.nullable(v.picklist(RACK_FACES)),
  environment_id: v.nullable(v.number()),
  environment_name: v.nullable(v.string()),
  site_id: v.nullable(v.number()),
  vendor_catalog_key: v.nullable(v.string()),
  model_catalog_key: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const HardwareListQuery = inventoryListQuery(
  ["name", "role", "status", "vendor", "ip_address", "created_at", "updated_at", "memory_gb"],
  {
    status: TextFilter,
    role: TextFilter,
    vendor: TextFilter,
    environment_id: IntFilter,
    site_id: IntFilter,
    rack_id: IntFilter,
    tag: TextFilter,
  },
);

/** POST /hardware/{hardware_id}/connections: the node to connect to and what the link is. */
export const ConnectionCreate = v.object({
  target_hardware_id: Ref,
  connection_type: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(50))),
  bandwidth_mbps: OptionalInt(0, 10_000_000),
  notes: OptionalText(2000),
});
export const HardwareConnection = v.object({
  id: v.number(),
  source_hardware_id: v.number(),
  target_hardware_id: v.number(),
  connection_type: v.string(),
  bandwidth_mbps: v.nullable(v.number()),
  notes: v.nullable(v.string()),
  created_at: v.nullable(v.string()),
  updated_at: v.nullable(v.string()),
});
export const HardwareConnections = v.array(HardwareConnection);
/** GET /hardware/{hardware_id}/clusters: the clusters a node belongs to, with its membership's id and role. */
export const HardwareClusters = v.array(
  v.object({ id: v.number(), name: v.string(), type: v.nullable(v.string()), member_id: v.number(), role: v.nullable(v.string()) }),
);
/** GET /hardware/{hardware_id}/network-memberships. */
export const HardwareNetworkMemberships = v.array(
  v.object({
    network_id: v.number(),
    name: v.string(),
    cidr: v.nullable(v.string()),
    vlan_id: v.nullable(v.number()),
    ip_address: v.nullable(v.string()),
  }),
);
