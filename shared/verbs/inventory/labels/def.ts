// Environments and categories: named, coloured labels with unique names, under the services scopes
// (write:services) because they label services. Deleting one sets the references to it to null (the
// foreign keys do it): hardware, compute units, services and clusters lose the environment, services
// the category.
import { categories, environments } from "../../../db/schema/index.ts";
import { withIsoTimestamps } from "../../resources/present.ts";
import { defineResource, type RowOf, type ValuesOf } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireUnique } from "../../resources/row-checks.ts";
import type { EventChannel, VerbScope } from "../../verb.ts";

type LabelTable = typeof environments | typeof categories;

/** What the two kinds of label share; each keeps its own table and read shape (present). */
function labelRules(label: string, table: LabelTable) {
  return {
    label,
    scopeResource: "services",
    columns: { id: table.id },
    channels: ["inventory"] satisfies EventChannel[],
    list: {
      sortable: { name: table.name, created_at: table.created_at, updated_at: table.updated_at },
      search: [table.name, table.description],
    },
    async toValues<V extends ValuesOf<LabelTable>>(s: VerbScope, input: V, existing: RowOf<LabelTable> | undefined): Promise<V> {
      if ("name" in input)
        await requireUnique(s.tx, {
          table,
          id: table.id,
          column: table.name,
          value: input.name,
          exceptId: existing?.id,
          field: "name",
          label,
        });
      return input;
    },
  };
}

export const environmentVerbs = resourceVerbs(
  defineResource({
    entityType: "environment",
    table: environments,
    ...labelRules("Environment", environments),
    present: async (_db, rows) => rows.map(withIsoTimestamps),
  }),
);
export const categoryVerbs = resourceVerbs(
  defineResource({
    entityType: "category",
    table: categories,
    ...labelRules("Category", categories),
    present: async (_db, rows) => rows.map(withIsoTimestamps),
  }),
);
