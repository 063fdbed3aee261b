// Storage items (disks, pools, datasets, shares). used_gb may not exceed capacity_gb when both are
// known (after the change). Deleting one unlinks it from the services that use it (service_storage).
import type * as v from "valibot";
import { hardware, serviceStorage, storage } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { StorageListQuery } from "../../../schemas/storage.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { removeLinks } from "../../resources/remove-links.ts";
import { defineResource, type ValuesOf } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireOptionalRow } from "../../resources/row-checks.ts";

type Row = typeof storage.$inferSelect;

/** The value a size has after the change: the given one, else the stored one. */
const after = (input: ValuesOf<typeof storage>, existing: Row | undefined, key: "capacity_gb" | "used_gb") =>
  input[key] !== undefined ? input[key] : existing?.[key];

const storageDef = defineResource({
  label: "Storage item",
  entityType: "storage",
  table: storage,
  columns: { id: storage.id, version: storage.version, tags: storage.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: {
      name: storage.name,
      kind: storage.kind,
      capacity_gb: storage.capacity_gb,
      used_gb: storage.used_gb,
      path: storage.path,
      hardware_id: storage.hardware_id,
      created_at: storage.created_at,
      updated_at: storage.updated_at,
    },
    search: [storage.name, storage.path, storage.notes],
  },
  filters: (q: v.InferOutput<typeof StorageListQuery>) => [
    eqFilter(storage.kind, q.kind),
    eqFilter(storage.hardware_id, q.hardware_id),
    tagFilter(storage.tags, q.tag),
  ],
  async toValues(s, input, existing) {
    const capacity = after(input, existing, "capacity_gb");
    const used = after(input, existing, "used_gb");
    if (typeof capacity === "number" && typeof used === "number" && used > capacity)
      throw ApiError.validation([
        { loc: ["body", "used_gb"], msg: `used_gb (${used}) exceeds capacity_gb (${capacity}).`, type: "value_error" },
      ]);
    await requireOptionalRow(s.tx, hardware, hardware.id, input.hardware_id, "Hardware node", "hardware_id");
    return input;
  },
  async beforeDelete(s, row) {
    await removeLinks(s, { entityType: "storage", id: row.id }, [
      { name: "service_storage", table: serviceStorage, column: serviceStorage.storage_id },
    ]);
  },
  async present(db, rows) {
    const hosts = await namesById(
      db,
      hardware,
      hardware.id,
      hardware.name,
      rows.map((r) => r.hardware_id),
    );
    return rows.map((r) => presentOne(r, hosts));
  },
});

export const storageVerbs = resourceVerbs(storageDef);

function presentOne(r: Row, hosts: Map<number, string>) {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind as "disk" | "pool" | "dataset" | "share",
    capacity_gb: r.capacity_gb,
    used_gb: r.used_gb,
    used_pct: r.capacity_gb && r.used_gb != null ? Math.round((r.used_gb / r.capacity_gb) * 1000) / 10 : null,
    hardware_id: r.hardware_id,
    hardware_name: r.hardware_id == null ? null : (hosts.get(r.hardware_id) ?? null),
    path: r.path,
    notes: r.notes,
    tags: r.tags,
    version: r.version,
    custom_fields: r.custom_fields,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
