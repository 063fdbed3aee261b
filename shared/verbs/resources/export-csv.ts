// GET {base}/export.csv: every record a list's filters, search and sort select, as CSV (docs/adr/0469).
// The list verb's own pages, read in one snapshot (a record changed meanwhile is not listed twice or
// skipped), a thousand rows a statement; the columns are those asked, in that order. csv-stringify does
// the quoting (a comma, quote or line break inside a value), so a name cannot break a row.
import { stringify } from "csv-stringify/sync";
import { ApiError } from "../../errors.ts";
import { definitionsOf } from "../custom-fields/definitions.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { defineSnapshotRead, type Verb } from "../verb.ts";
import type { ResourceVerbs } from "./resource-verbs.ts";

/** The most rows one export holds: a larger selection is refused with a word to narrow it. */
export const EXPORT_MAX_ROWS = 250_000;
const CHUNK = 1000;

/** A value as one CSV cell: lists joined by ", ", objects as JSON, nothing as an empty cell. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(csvCell).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export interface CsvExportInput<Q> {
  query: Q;
  /** The columns asked for; undefined: `fields`, then a cf_<name> column for each custom field of the kind. */
  columns: string[] | undefined;
  fields: string[];
}

/** A cell's value: a field of the item, or `cf_<name>` for a custom field's value. */
function cellValue(item: Record<string, unknown>, column: string): unknown {
  if (!column.startsWith("cf_")) return item[column];
  return (item.custom_fields as Record<string, unknown> | undefined)?.[column.slice(3)];
}

export function csvExportVerb<Api, Q extends ListParams, V>(verbs: ResourceVerbs<Api, Q, V, number>): Verb<CsvExportInput<Q>, string> {
  return defineSnapshotRead({ scope: verbs.scopes.read }, async (ctx, { query, columns: asked, fields }) => {
    const custom = verbs.customFieldKind ? (await definitionsOf(ctx.db, verbs.customFieldKind)).map((d) => `cf_${d.name}`) : [];
    const unknown = (asked ?? []).find((c) => c.startsWith("cf_") && !custom.includes(c));
    if (unknown !== undefined)
      throw ApiError.validation([
        { loc: ["query", "columns"], msg: `No custom field "${unknown.slice(3)}" applies to this kind.`, type: "value_error" },
      ]);
    const columns = asked ?? [...fields, ...custom];
    const rows: string[][] = [];
    for (let offset = 0; ; offset += CHUNK) {
      const page = await verbs.list({ ctx, input: { ...query, limit: CHUNK, offset } });
      if (page.total > EXPORT_MAX_ROWS)
        throw ApiError.validation([
          {
            loc: ["query"],
            msg: `${page.total.toLocaleString("en")} records match; an export holds at most ${EXPORT_MAX_ROWS.toLocaleString("en")}. Narrow it with a filter or a search.`,
            type: "value_error",
          },
        ]);
      for (const item of page.items) rows.push(columns.map((c) => csvCell(cellValue(item as Record<string, unknown>, c))));
      if (page.items.length < CHUNK) break;
    }
    return stringify(rows, { header: true, columns, bom: true });
  });
}
