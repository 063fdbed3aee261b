// Miscellaneous items (anything worth a node on the graph that fits nowhere else). Deleting one
// unlinks it from the services that use it (service_misc).
import { miscItems, serviceMisc } from "../../../db/schema/index.ts";
import type { ResourceDef } from "../resource.ts";
import { iso } from "../present.ts";
import { removeLinks } from "../storage/remove-links.ts";

type Row = typeof miscItems.$inferSelect;

export const miscDef: ResourceDef<ReturnType<typeof presentOne>> = {
  label: "Misc item",
  entityType: "misc",
  table: miscItems,
  columns: { id: miscItems.id, version: miscItems.version, tags: miscItems.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: { name: miscItems.name, kind: miscItems.kind, created_at: miscItems.created_at, updated_at: miscItems.updated_at },
    search: [miscItems.name, miscItems.kind, miscItems.description, miscItems.url],
  },
  async beforeDelete(s, row) {
    await removeLinks(s, { entityType: "misc", id: row.id }, [{ name: "service_misc", table: serviceMisc, column: serviceMisc.misc_id }]);
  },
  async present(_db, rows) {
    return rows.map((r) => presentOne(r as Row));
  },
};

/** The row as it is, with ISO timestamps (every column is part of the API shape). */
function presentOne(r: Row) {
  return { ...r, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! };
}
