// Hardware nodes. Deleting one that still hosts compute units, services or storage answers 409 listing
// them; its connections, cluster and network memberships, ports and cables go with it (they are links, not things).
import { eq } from "drizzle-orm";
import type * as v from "valibot";
import { computeUnits, environments, hardware, racks, services, storage } from "../../../db/schema/index.ts";
import type { HardwareListQuery } from "../../../schemas/hardware.ts";
import { dependentsConflict } from "../../resources/dependents-conflict.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { placementChecked, placementValues } from "../racks/placement.ts";
import { removeCablesOn } from "../cabling/endpoints.ts";
import { portsOfNode } from "../cabling/ports.ts";

type Row = typeof hardware.$inferSelect;

const hardwareDef = defineResource({
  label: "Hardware node",
  entityType: "hardware",
  table: hardware,
  columns: { id: hardware.id, version: hardware.version, tags: hardware.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: {
      name: hardware.name,
      role: hardware.role,
      status: hardware.status,
      vendor: hardware.vendor,
      ip_address: hardware.ip_address,
      created_at: hardware.created_at,
      updated_at: hardware.updated_at,
      memory_gb: hardware.memory_gb,
    },
    search: [hardware.name, hardware.ip_address, hardware.role, hardware.vendor, hardware.model],
  },
  filters: (q: v.InferOutput<typeof HardwareListQuery>) => [
    eqFilter(hardware.status, q.status),
    eqFilter(hardware.role, q.role),
    eqFilter(hardware.vendor, q.vendor),
    eqFilter(hardware.environment_id, q.environment_id),
    eqFilter(hardware.site_id, q.site_id),
    eqFilter(hardware.rack_id, q.rack_id),
    tagFilter(hardware.tags, q.tag),
  ],
  // A status change records when it happened: the status worker's "offline for more than 5 minutes".
  // A node in a rack is checked where it is mounted (racks/placement.ts, ADR 0480).
  async toValues(s, input, existing) {
    const placed = await placementValues(s, input, existing);
    const changed = input.status !== undefined && input.status !== existing?.status;
    return changed ? { ...placed, status_changed_at: s.now } : placed;
  },
  // A batched import writes a node placed in a rack after the rows before it, so the units they take count.
  writesAlone: placementChecked,
  async beforeDelete(s, row) {
    const id = row.id;
    const [cus, svcs, sts] = await Promise.all([
      s.tx.select({ id: computeUnits.id, name: computeUnits.name }).from(computeUnits).where(eq(computeUnits.hardware_id, id)),
      s.tx.select({ id: services.id, name: services.name }).from(services).where(eq(services.hardware_id, id)),
      s.tx.select({ id: storage.id, name: storage.name }).from(storage).where(eq(storage.hardware_id, id)),
    ]);
    const dependents = [
      ...cus.map((r) => ({ type: "compute_unit", ...r })),
      ...svcs.map((r) => ({ type: "service", ...r })),
      ...sts.map((r) => ({ type: "storage", ...r })),
    ];
    if (dependents.length > 0) throw dependentsConflict("Hardware node", id, dependents);
    // Its ports go with it (foreign keys); the cables on them are taken first, each audited.
    await removeCablesOn(s, await portsOfNode(s.tx, id), `hardware node ${id} deleted`);
  },
  async present(db, rows) {
    const [envs, rackNames] = await Promise.all([
      namesById(
        db,
        environments,
        environments.id,
        environments.name,
        rows.map((r) => r.environment_id),
      ),
      namesById(
        db,
        racks,
        racks.id,
        racks.name,
        rows.map((r) => r.rack_id),
      ),
    ]);
    return rows.map((r) => presentOne(r, envs, rackNames));
  },
});

export const hardwareVerbs = resourceVerbs(hardwareDef);

function presentOne(r: Row, envs: Map<number, string>, rackNames: Map<number, string>) {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    vendor: r.vendor,
    model: r.model,
    cpu: r.cpu,
    cpu_brand: r.cpu_brand,
    memory_gb: r.memory_gb,
    ip_address: r.ip_address,
    mac_address: r.mac_address,
    status: r.status,
    status_changed_at: iso(r.status_changed_at),
    status_override: r.status_override,
    effective_status: r.status_override ?? r.status,
    location: r.location,
    u_height: r.u_height,
    rack_unit: r.rack_unit,
    rack_id: r.rack_id,
    rack_name: r.rack_id == null ? null : (rackNames.get(r.rack_id) ?? null),
    rack_face: r.rack_face as "front" | "rear" | "both" | null,
    environment_id: r.environment_id,
    environment_name: r.environment_id == null ? null : (envs.get(r.environment_id) ?? null),
    site_id: r.site_id,
    vendor_catalog_key: r.vendor_catalog_key,
    model_catalog_key: r.model_catalog_key,
    notes: r.notes,
    tags: r.tags,
    version: r.version,
    custom_fields: r.custom_fields,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
