// IP prefixes (docs/ipam.md): a network in a VRF (or the global table) whose parent, depth, children
// and utilisation are computed from containment, and the free child prefixes and addresses inside it.
import * as v from "valibot";
import { PREFIX_STATUSES } from "../domain/prefix-statuses.ts";
import { OptionalText, patchBody, RefId, Tags, writeBody } from "./fields.ts";
import { IntFilter, limitParam, listQuery, TextFilter } from "./list-query.ts";
import { AddressOrCidr, NetworkCidr } from "./networks.ts";

export { PREFIX_STATUSES };
const Status = v.picklist(PREFIX_STATUSES, `Must be one of: ${PREFIX_STATUSES.join(", ")}.`);

const writable = {
  prefix: NetworkCidr,
  vrf_id: RefId,
  status: v.optional(Status),
  is_pool: v.optional(v.boolean()),
  mark_utilized: v.optional(v.boolean()),
  site_id: RefId,
  vlan_id: RefId,
  description: OptionalText(2000),
  tags: Tags,
};
const readOnly = ["family", "vrf_name", "site_name", "parent_id", "depth", "children", "utilisation"];

export const PrefixCreate = writeBody(writable, readOnly);
export const PrefixPatch = patchBody(writable, readOnly);

export const Utilisation = v.object({ used: v.string(), total: v.string(), percent: v.number() });

export const Prefix = v.object({
  id: v.number(),
  prefix: v.string(),
  family: v.picklist([4, 6]),
  vrf_id: v.nullable(v.number()),
  vrf_name: v.nullable(v.string()),
  status: v.string(),
  is_pool: v.boolean(),
  mark_utilized: v.boolean(),
  site_id: v.nullable(v.number()),
  site_name: v.nullable(v.string()),
  vlan_id: v.nullable(v.number()),
  description: v.nullable(v.string()),
  parent_id: v.nullable(v.number()),
  depth: v.number(),
  children: v.number(),
  utilisation: Utilisation,
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});

export const PrefixListQuery = listQuery(
  ["prefix", "vrf_id", "status", "created_at", "updated_at"],
  {
    vrf_id: IntFilter,
    status: v.optional(Status),
    site_id: IntFilter,
    within: v.optional(NetworkCidr),
    contains: v.optional(AddressOrCidr),
    family: v.optional(v.pipe(v.string(), v.picklist(["4", "6"], "Must be 4 or 6."), v.transform(Number))),
    tag: TextFilter,
  },
  "prefix",
);

/** The prefix length asked for, e.g. 26 (checked against the parent in the verb). */
const Length = v.pipe(v.number(), v.integer("Must be an integer."), v.minValue(0), v.maxValue(128));

export const AvailablePrefixesQuery = v.object({
  length: v.pipe(v.string(), v.regex(/^\d{1,3}$/, "Must be a prefix length (0-128)."), v.transform(Number), Length),
  limit: limitParam({ default: 10, max: 100 }),
});
export const AvailablePrefix = v.object({ prefix: v.string(), vrf_id: v.nullable(v.number()) });
export const AvailablePrefixes = v.object({ parent_id: v.number(), length: v.number(), items: v.array(AvailablePrefix) });

export const AllocatePrefixBody = v.object({
  length: Length,
  status: v.optional(Status),
  description: OptionalText(2000),
  site_id: RefId,
  vlan_id: RefId,
  tags: Tags,
});

export const AvailableIpsQuery = v.object({ limit: limitParam({ default: 10, max: 100 }) });
export const AvailableIps = v.object({ prefix_id: v.number(), prefix: v.string(), items: v.array(v.string()) });
