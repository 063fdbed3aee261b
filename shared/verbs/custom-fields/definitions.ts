// Reading custom field definitions for the verbs that check values against them: the inventory engine's
// writes and lists (../resources/custom-field-hooks.ts), the CSV export and the definitions' own verbs.
import { asc, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { customFieldDefinitions } from "../../db/schema/index.ts";
import type { CustomFieldDefinition, CustomFieldType } from "../../domain/custom-fields.ts";

export type DefinitionRow = typeof customFieldDefinitions.$inferSelect;

export function asDefinition(r: DefinitionRow): CustomFieldDefinition {
  return {
    name: r.name,
    type: r.type as CustomFieldType,
    kinds: r.kinds,
    required: r.required,
    default_value: r.default_value,
    choices: r.choices,
    reference_kind: r.reference_kind,
    regex: r.regex,
    min_value: r.min_value ?? null,
    max_value: r.max_value ?? null,
    min_length: r.min_length,
    max_length: r.max_length,
  };
}

/** The definitions applying to a kind, in form order (weight, then name). */
export async function definitionsOf(db: Db, kind: string): Promise<CustomFieldDefinition[]> {
  const rows = await db
    .select()
    .from(customFieldDefinitions)
    .where(sql`${customFieldDefinitions.kinds} @> array[${kind}]::text[]`)
    .orderBy(asc(customFieldDefinitions.weight), asc(customFieldDefinitions.name));
  return rows.map(asDefinition);
}
