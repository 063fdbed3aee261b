// Custom field definitions as a resource of the engine (docs/custom-fields.md, docs/adr/0495): everyone
// who reads the inventory reads them (the console's forms, filters and columns are built from them);
// writing them is write:custom-fields, which only administrators hold. A definition is checked as a whole
// (shared/domain/custom-fields.ts, definitionIssues) on every write; taking a kind away from it removes
// its values from that kind's objects. Deleting one is remove-definition.ts (confirmed when values go).
import { sql } from "drizzle-orm";
import type * as v from "valibot";
import { customFieldDefinitions } from "../../db/schema/index.ts";
import { definitionIssues } from "../../domain/custom-fields.ts";
import { ApiError } from "../../errors.ts";
import type { CustomFieldListQuery } from "../../schemas/custom-fields.ts";
import { OBJECT_TYPES, type ObjectType } from "../inventory/object-kinds.ts";
import { iso } from "../resources/present.ts";
import { defineResource } from "../resources/resource-def.ts";
import { resourceVerbs } from "../resources/resource-verbs.ts";
import { requireUnique } from "../resources/row-checks.ts";
import { eqFilter } from "../resources/filters.ts";
import { asDefinition, type DefinitionRow } from "./definitions.ts";
import { stripValues } from "./strip-values.ts";

const t = customFieldDefinitions;

/** The API's `default` is the column default_value (`default` is a word SQL keeps for itself). */
type Input = Partial<DefinitionRow> & { default?: unknown };

export const customFieldDef = defineResource({
  label: "Custom field",
  entityType: "custom_field",
  scopeResource: "custom-fields",
  table: t,
  columns: { id: t.id, version: t.version },
  channels: ["inventory"],
  list: {
    sortable: { weight: t.weight, name: t.name, label: t.label, type: t.type, created_at: t.created_at, updated_at: t.updated_at },
    search: [t.name, t.label, t.description],
  },
  filters: (q: v.InferOutput<typeof CustomFieldListQuery>) => [
    q.kind === undefined ? undefined : sql`${t.kinds} @> array[${q.kind}]::text[]`,
    eqFilter(t.type, q.type),
  ],
  async toValues(s, raw, existing) {
    const { default: given, ...input } = raw as Input;
    const values = { ...input, ...(given !== undefined ? { default_value: given } : {}) };
    if (values.name !== undefined)
      await requireUnique(s.tx, {
        table: t,
        id: t.id,
        column: t.name,
        value: values.name,
        exceptId: existing?.id,
        field: "name",
        label: "Custom field",
      });
    const merged = asDefinition({ ...(existing ?? ({} as DefinitionRow)), ...values } as DefinitionRow);
    const issues = definitionIssues(merged, OBJECT_TYPES);
    if (issues.length > 0) throw ApiError.validation(issues.map((i) => ({ loc: ["body", i.field], msg: i.msg, type: "value_error" })));
    if (existing && values.kinds) {
      const dropped = existing.kinds.filter((k) => !values.kinds!.includes(k));
      await stripValues(s, existing.name, dropped as ObjectType[], s.now);
    }
    return values;
  },
  async present(_db, rows) {
    return rows.map((r) => {
      const { default_value, ...rules } = asDefinition(r);
      return {
        id: r.id,
        label: r.label,
        description: r.description,
        ...rules,
        default: default_value ?? null,
        weight: r.weight,
        version: r.version,
        created_at: iso(r.created_at)!,
        updated_at: iso(r.updated_at)!,
      };
    });
  },
});

export const customFieldVerbs = resourceVerbs(customFieldDef);
