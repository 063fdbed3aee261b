// IPAM records. The address is stored canonical and recorded once (409 naming the record that holds
// it); with a network it must lie in the network's cidr; an assignment names a hardware node, compute
// unit or service that exists. Nothing points at a record, so deleting one just removes it.
import { eq } from "drizzle-orm";
import type * as v from "valibot";
import { computeUnits, hardware, ipAddresses, networks, services } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { IpListQuery } from "../../../schemas/ipam.ts";
import { eqFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireRow } from "../../resources/row-checks.ts";
import { inetSortKey } from "../networks/inet-sort.ts";
import { loadNetwork, requireInside } from "../networks/network-ref.ts";

type Row = typeof ipAddresses.$inferSelect;

const ASSIGNABLE = {
  hardware: { table: hardware, id: hardware.id, label: "Hardware node" },
  compute_unit: { table: computeUnits, id: computeUnits.id, label: "Compute unit" },
  service: { table: services, id: services.id, label: "Service" },
} as const;

const invalid = (field: string, msg: string) => ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);

const ipamDef = defineResource({
  label: "IP address",
  entityType: "ip_address",
  scopeResource: "networks",
  table: ipAddresses,
  columns: { id: ipAddresses.id, version: ipAddresses.version },
  channels: ["inventory"],
  list: {
    sortable: {
      address: inetSortKey(ipAddresses.address),
      status: ipAddresses.status,
      hostname: ipAddresses.hostname,
      created_at: ipAddresses.created_at,
      updated_at: ipAddresses.updated_at,
    },
    search: [ipAddresses.address, ipAddresses.hostname, ipAddresses.mac_address, ipAddresses.description],
  },
  filters: (q: v.InferOutput<typeof IpListQuery>) => [
    eqFilter(ipAddresses.network_id, q.network_id),
    eqFilter(ipAddresses.status, q.status),
    eqFilter(ipAddresses.assigned_type, q.assigned_type),
  ],
  async toValues(s, input, existing) {
    const merged = { ...existing, ...input } as Partial<Row>;
    if ("address" in input) {
      const [holder] = await s.tx.select().from(ipAddresses).where(eq(ipAddresses.address, merged.address!));
      if (holder && holder.id !== existing?.id) {
        const msg = `${merged.address} is already recorded (IP address ${holder.id}${holder.hostname ? `, ${holder.hostname}` : ""}).`;
        throw ApiError.conflict(msg, { fields: { address: msg }, existing_id: holder.id });
      }
    }
    if (merged.network_id != null && ("address" in input || "network_id" in input)) {
      const network = await loadNetwork(s.tx, merged.network_id, { lock: true, field: "network_id" });
      requireInside(network, merged.address, "address");
    }
    const type = merged.assigned_type as keyof typeof ASSIGNABLE | null | undefined;
    const assignedId = merged.assigned_id;
    if (type == null && assignedId != null)
      throw invalid("assigned_type", "assigned_id needs an assigned_type (hardware, compute_unit or service).");
    if (type != null && assignedId == null) throw invalid("assigned_id", `assigned_type ${type} needs an assigned_id.`);
    if (type != null && assignedId != null && ("assigned_type" in input || "assigned_id" in input)) {
      const target = ASSIGNABLE[type];
      await requireRow(s.tx, target.table, target.id, assignedId, target.label, "assigned_id");
    }
    return input;
  },
  async present(db, rows) {
    const names = await namesById(
      db,
      networks,
      networks.id,
      networks.name,
      rows.map((r) => r.network_id),
    );
    return rows.map((r) => presentOne(r, names));
  },
});

export const ipamVerbs = resourceVerbs(ipamDef);

function presentOne(r: Row, networkNames: Map<number, string>) {
  return {
    id: r.id,
    address: r.address,
    network_id: r.network_id,
    network_name: r.network_id == null ? null : (networkNames.get(r.network_id) ?? null),
    status: r.status,
    hostname: r.hostname,
    mac_address: r.mac_address,
    assigned_type: r.assigned_type,
    assigned_id: r.assigned_id,
    description: r.description,
    version: r.version,
    custom_fields: r.custom_fields,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
