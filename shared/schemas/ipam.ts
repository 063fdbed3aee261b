// IPAM: recorded addresses, the next free address of a network, and who uses an address.
import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { IdParam, OptionalText, patchBody, RefId, writeBody } from "./fields.ts";
import { IntFilter, inventoryListQuery } from "./list-query.ts";
import { Address } from "./networks.ts";

export const IP_STATUSES = ["allocated", "reserved", "dhcp", "free"] as const;
export const ASSIGNED_TYPES = ["hardware", "compute_unit", "service"] as const;

const MAC = /^[0-9a-f]{2}([:-]?)[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/i;
/** aa:bb:cc:dd:ee:ff, aa-bb-..., aabbccddeeff; stored lower case with colons. "" clears it. */
const MacAddress = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((s) => s === "" || MAC.test(s), "Not a MAC address (aa:bb:cc:dd:ee:ff)."),
      v.transform((s) =>
        s === ""
          ? null
          : s
              .toLowerCase()
              .replace(/[^0-9a-f]/g, "")
              .replace(/(..)(?!$)/g, "$1:"),
      ),
    ),
  ),
);

const writable = {
  address: Address,
  network_id: RefId,
  status: v.optional(v.picklist(IP_STATUSES, `Must be one of: ${IP_STATUSES.join(", ")}.`)),
  hostname: OptionalText(253),
  mac_address: MacAddress,
  assigned_type: v.optional(v.nullable(v.picklist(ASSIGNED_TYPES, `Must be one of: ${ASSIGNED_TYPES.join(", ")}, or null.`))),
  assigned_id: RefId,
  description: OptionalText(2000),
  custom_fields: CustomFieldValuesInput,
};
const readOnly = ["network_name"];

export const IpCreate = writeBody(writable, readOnly);
export const IpPatch = patchBody(writable, readOnly);

export const IpRecord = v.object({
  id: v.number(),
  address: v.string(),
  network_id: v.nullable(v.number()),
  network_name: v.nullable(v.string()),
  status: v.string(),
  hostname: v.nullable(v.string()),
  mac_address: v.nullable(v.string()),
  assigned_type: v.nullable(v.string()),
  assigned_id: v.nullable(v.number()),
  description: v.nullable(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const IpListQuery = inventoryListQuery(["address", "status", "hostname", "created_at", "updated_at"], {
  network_id: IntFilter,
  status: v.optional(v.picklist(IP_STATUSES, `Must be one of: ${IP_STATUSES.join(", ")}.`)),
  assigned_type: v.optional(v.picklist(ASSIGNED_TYPES, `Must be one of: ${ASSIGNED_TYPES.join(", ")}.`)),
});

export const NextFreeQuery = IdParam("network_id");
export const NextFree = v.object({ network_id: v.number(), cidr: v.string(), address: v.string() });

export const CheckBody = v.object({ address: Address });
const Use = v.object({
  type: v.picklist([
    "ipam",
    "hardware",
    "compute_unit",
    "service",
    "service_port",
    "network_member",
    "network_hardware_member",
    "network_gateway",
  ]),
  id: v.number(),
  name: v.nullable(v.string()),
  ip_address: v.string(),
  network_id: v.nullable(v.number()),
  status: v.nullable(v.string()),
});
export const CheckResult = v.object({
  address: v.string(),
  in_use: v.boolean(),
  used_by: v.array(Use),
  networks: v.array(v.object({ id: v.number(), name: v.string(), cidr: v.string() })),
});
