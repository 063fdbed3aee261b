// Environments and categories: named, coloured labels with unique names, under the services scopes
// (write:services) because they label services. Deleting one sets the references to it to null (the
// foreign keys do it): hardware, compute units, services and clusters lose the environment, services
// the category.
import { categories, environments } from "../../../db/schema/index.ts";
import { iso } from "../present.ts";
import type { ResourceDef } from "../resource.ts";
import { requireUnique } from "../row-checks.ts";

type LabelTable = typeof environments | typeof categories;
type LabelRow = Record<string, unknown> & { id: number; created_at: Date; updated_at: Date };

function labelDef(label: string, entityType: string, table: LabelTable): ResourceDef<Record<string, unknown>> {
  return {
    label,
    entityType,
    scopeResource: "services",
    table,
    columns: { id: table.id },
    channels: ["inventory"],
    list: {
      sortable: { name: table.name, created_at: table.created_at, updated_at: table.updated_at },
      search: [table.name, table.description],
    },
    async toValues(s, input, existing) {
      if ("name" in input) await requireUnique(s.tx, { table, id: table.id, column: table.name, value: input.name, exceptId: existing?.id, field: "name", label });
      return input;
    },
    async present(_db, rows) {
      return (rows as LabelRow[]).map((r) => ({ ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) }));
    },
  };
}

export const environmentDef = labelDef("Environment", "environment", environments);
export const categoryDef = labelDef("Category", "category", categories);
