// Miscellaneous items (anything worth a node on the graph that fits nowhere else). Deleting one
// unlinks it from the services that use it (service_misc).
import type * as v from "valibot";
import { miscItems, serviceMisc } from "../../../db/schema/index.ts";
import type { MiscListQuery } from "../../../schemas/misc.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { withIsoTimestamps } from "../../resources/present.ts";
import { removeLinks } from "../../resources/remove-links.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";

const miscDef = defineResource({
  label: "Misc item",
  entityType: "misc",
  table: miscItems,
  columns: { id: miscItems.id, version: miscItems.version, tags: miscItems.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: { name: miscItems.name, kind: miscItems.kind, created_at: miscItems.created_at, updated_at: miscItems.updated_at },
    search: [miscItems.name, miscItems.kind, miscItems.description, miscItems.url],
  },
  filters: (q: v.InferOutput<typeof MiscListQuery>) => [eqFilter(miscItems.kind, q.kind), tagFilter(miscItems.tags, q.tag)],
  async beforeDelete(s, row) {
    await removeLinks(s, { entityType: "misc", id: row.id }, [{ name: "service_misc", table: serviceMisc, column: serviceMisc.misc_id }]);
  },
  async present(_db, rows) {
    return rows.map(withIsoTimestamps);
  },
});

export const miscVerbs = resourceVerbs(miscDef);
