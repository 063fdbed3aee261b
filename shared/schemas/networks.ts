// Networks (docs/architecture.md, API contracts: name, cidr, vlan_id, gateway), their members and peers. Addresses and CIDRs
// are parsed here and stored in canonical form; "" clears an optional address.
import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { parseAddress, parseNetwork } from "../domain/cidr-math.ts";
import { IntFilter, inventoryListQuery, TextFilter } from "./list-query.ts";
import { Name, OptionalInt, OptionalText, patchBody, Ref, RefId, Tags, writeBody } from "./fields.ts";

type Parse = (input: string) => { ok: true; text: string } | { ok: false; message: string };

/** The parser's canonical text, or its message as the field's issue; "" is null when blankIsNull. */
const canonical = <B extends boolean>(parse: Parse, blankIsNull: B) =>
  v.rawTransform<string, B extends true ? string | null : string>(({ dataset, addIssue, NEVER }) => {
    if (blankIsNull && dataset.value === "") return null as never;
    const r = parse(dataset.value);
    if (r.ok) return r.text;
    addIssue({ message: r.message });
    return NEVER;
  });
const text = v.pipe(v.string(), v.trim(), v.maxLength(100));

/** One IPv4 or IPv6 address, stored canonical (RFC 5952 for IPv6). */
export const Address = v.pipe(text, canonical(parseAddress, false));
/** An optional address; "" clears it like null. */
export const OptionalAddress = v.optional(v.nullable(v.pipe(text, canonical(parseAddress, true))));
/** A network in CIDR notation with the host bits zero; otherwise the message names the canonical form. */
export const NetworkCidr = v.pipe(text, canonical(parseNetwork, false));
/** An address or a network (host bits zero), canonical. */
export const AddressOrCidr = v.pipe(
  text,
  canonical((s: string) => (s.includes("/") ? parseNetwork(s) : parseAddress(s)), false),
);
const OptionalCidr = v.optional(v.nullable(v.pipe(text, canonical(parseNetwork, true))));

const writable = {
  name: Name,
  cidr: OptionalCidr,
  vlan_id: OptionalInt(1, 4094),
  gateway: OptionalAddress,
  dns_servers: v.optional(v.nullable(v.pipe(v.array(Address), v.maxLength(16)))),
  description: OptionalText(2000),
  site_id: RefId,
  tags: Tags,
  custom_fields: CustomFieldValuesInput,
};
const readOnly = ["site_name", "prefix_id"];

export const NetworkCreate = writeBody(writable, readOnly);
export const NetworkPatch = patchBody(writable, readOnly);

export const Network = v.object({
  id: v.number(),
  name: v.string(),
  cidr: v.nullable(v.string()),
  vlan_id: v.nullable(v.number()),
  gateway: v.nullable(v.string()),
  dns_servers: v.array(v.string()),
  description: v.nullable(v.string()),
  site_id: v.nullable(v.number()),
  site_name: v.nullable(v.string()),
  prefix_id: v.nullable(v.number()),
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const NetworkListQuery = inventoryListQuery(["name", "cidr", "vlan_id", "created_at", "updated_at"], {
  site_id: IntFilter,
  vlan_id: IntFilter,
  tag: TextFilter,
});

const Id = Ref;

export const ComputeMemberBody = v.object({ compute_id: Id, ip_address: OptionalAddress });
export const HardwareMemberBody = v.object({ hardware_id: Id, ip_address: OptionalAddress });
export const PeerBody = v.object({ peer_network_id: Id, description: OptionalText(2000) });

export const ComputeMember = v.object({
  network_id: v.number(),
  compute_id: v.number(),
  name: v.string(),
  kind: v.string(),
  status: v.string(),
  ip_address: v.nullable(v.string()),
});
export const ComputeMembers = v.array(ComputeMember);
export const HardwareMember = v.object({
  network_id: v.number(),
  hardware_id: v.number(),
  name: v.string(),
  status: v.string(),
  ip_address: v.nullable(v.string()),
});
export const HardwareMembers = v.array(HardwareMember);
export const Peer = v.object({
  network_id: v.number(),
  peer_network_id: v.number(),
  name: v.string(),
  cidr: v.nullable(v.string()),
  description: v.nullable(v.string()),
});
export const Peers = v.array(Peer);
