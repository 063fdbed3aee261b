// The cf_ parameters of an inventory list (docs/custom-fields.md): `cf_<name>=value` keeps the objects
// whose field has that value (a multi-selection: that contains it), `cf_<name>__gte` / `__lte` bound a
// number or a date, `sort=cf_<name>` orders by the field. The exact filters are jsonb containment, which
// the kind's GIN index on custom_fields answers. A name no definition of the kind has is a 422.
import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { type CustomFieldDefinition, filterValue } from "../../domain/custom-fields.ts";
import { ApiError } from "../../errors.ts";
import { CUSTOM_FIELD_PARAM } from "../../schemas/list-query.ts";
import { definitionsOf } from "./definitions.ts";

export interface CustomFieldListParts {
  where: SQL[];
  /** The sort expression when the list is sorted by a custom field. */
  sort?: SQL;
}

const RANGED = new Set(["integer", "decimal", "date"]);

const refuse = (key: string, msg: string) => ApiError.validation([{ loc: ["query", key], msg, type: "value_error" }]);

function condition(column: AnyColumn, def: CustomFieldDefinition, key: string, op: string | undefined, raw: string): SQL {
  const value = filterValue(def, raw);
  if (value === undefined) throw refuse(key, `Not a value of the ${def.type} field "${def.name}".`);
  if (op === undefined) {
    const wanted = { [def.name]: def.type === "multi_selection" ? [value] : value };
    return sql`${column} @> ${JSON.stringify(wanted)}::jsonb`;
  }
  if (!RANGED.has(def.type)) throw refuse(key, `__${op} applies to number and date fields only.`);
  const cmp = op === "gte" ? sql`>=` : sql`<=`;
  const text = sql`(${column} ->> ${def.name})`;
  return def.type === "date" ? sql`${text} ${cmp} ${value}` : sql`${text}::numeric ${cmp} ${value}`;
}

/** The conditions and sort the query's cf_ parameters ask for (none: no definitions are read). */
export async function customFieldListParts(
  db: Db,
  kind: string,
  column: AnyColumn,
  query: Record<string, unknown>,
): Promise<CustomFieldListParts> {
  const params = Object.entries(query).filter(([k]) => k.startsWith("cf_"));
  const sortName = typeof query.sort === "string" && query.sort.startsWith("cf_") ? query.sort.slice(3) : undefined;
  if (params.length === 0 && sortName === undefined) return { where: [] };
  const defs = new Map((await definitionsOf(db, kind)).map((d) => [d.name, d]));
  const where: SQL[] = [];
  for (const [key, raw] of params) {
    const m = CUSTOM_FIELD_PARAM.exec(key);
    const def = m ? defs.get(m[1]!) : undefined;
    if (!m || !def) throw refuse(key, `No custom field "${key.slice(3).replace(/__(gte|lte)$/, "")}" applies to this kind.`);
    if (typeof raw !== "string") throw refuse(key, "Give one value.");
    where.push(condition(column, def, key, m[2], raw));
  }
  if (sortName === undefined) return { where };
  if (!defs.has(sortName)) throw refuse("sort", `No custom field "${sortName}" applies to this kind.`);
  return { where, sort: sql`(${column} -> ${sortName})` };
}
