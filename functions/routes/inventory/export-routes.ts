// GET {base}/export.csv of an inventory resource: the records its list's filters select, as CSV
// (docs/adr/0469). Not in the catalogue (the console's list export). Registered before GET {base}/{id},
// which would otherwise take "export.csv" for an id.
import type { Hono } from "hono";
import * as v from "valibot";
import { csvExportVerb, EXPORT_MAX_ROWS } from "../../../shared/verbs/resources/export-csv.ts";
import type { ResourceVerbs } from "../../../shared/verbs/resources/resource-verbs.ts";
import type { ListParams } from "../../../shared/schemas/list-query.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import type { Tag } from "../../openapi/tags.ts";

export interface ExportRouteOptions<Q extends ListParams, V> {
  verbs: ResourceVerbs<unknown, Q, V, number>;
  tag: Tag;
  basePath: string;
  noun: [string, string];
  /** The list's query schema (an object schema) and its item's (whose fields are the columns). */
  query: v.GenericSchema;
  item: v.GenericSchema;
}

export const exportPath = (basePath: string) => `${basePath}/export.csv`;

/** The file name offered: the list's last path segment and the day, "hardware-2026-11-29.csv". */
const fileName = (basePath: string, now: Date) => `${basePath.split("/").pop()}-${now.toISOString().slice(0, 10)}.csv`;

export function exportRoutes<Q extends ListParams, V>(app: Hono<AppEnv>, o: ExportRouteOptions<Q, V>): void {
  // The custom field values are columns of their own (cf_<name>), not one column of JSON.
  const fields = Object.keys((o.item as v.ObjectSchema<v.ObjectEntries, undefined>).entries).filter((f) => f !== "custom_fields");
  const listQuery = o.query as
    | v.ObjectSchema<v.ObjectEntries, undefined>
    | v.ObjectWithRestSchema<v.ObjectEntries, v.GenericSchema, undefined>;
  const custom = listQuery.type === "object_with_rest";
  // The list's own query without its paging (an export is every page), and the columns wanted.
  const { limit: _limit, offset: _offset, ...filters } = listQuery.entries;
  const column = custom
    ? v.union(
        [v.picklist(fields), v.pipe(v.string(), v.regex(/^cf_[a-z][a-z0-9_]*$/))],
        `Columns are: ${fields.join(", ")}, or cf_<name> for a custom field.`,
      )
    : v.picklist(fields, `Columns are: ${fields.join(", ")}.`);
  const entries = {
    ...filters,
    columns: v.optional(
      v.pipe(
        v.string(),
        v.transform((s) =>
          s
            .split(",")
            .map((c) => c.trim())
            .filter(Boolean),
        ),
        v.array(column),
        v.minLength(1, "Name at least one column."),
      ),
    ),
  };
  const query = custom ? v.objectWithRest(entries, listQuery.rest) : v.object(entries);
  const exportCsv = csvExportVerb(o.verbs);
  route(
    app,
    {
      method: "get",
      path: exportPath(o.basePath),
      tag: o.tag,
      scope: exportCsv.scope,
      summary: `Every ${o.noun[0]} the list's filters select, as CSV`,
      description: `The list's filters, q, sort and direction as on GET ${o.basePath} (no paging: every matching record, at most ${EXPORT_MAX_ROWS.toLocaleString("en")}; more is a 422 asking to narrow it). \`columns\`: the fields to write, comma-separated, in that order, \`cf_<name>\` for a custom field's value (default: every field, then every custom field of the kind). UTF-8 with a byte-order mark, a header row, lists joined by ", ".`,
      query,
      response: { schema: v.string(), contentType: "text/csv", description: "The records as CSV, offered as a download" },
    },
    async (c, { query: q }) => {
      const { columns, ...rest } = q as { columns?: string[] } & Record<string, unknown>;
      const ctx = verbContext(c);
      const text = await exportCsv({ ctx, input: { query: { ...rest, limit: 0, offset: 0 } as unknown as Q, columns, fields } });
      c.header("Content-Type", "text/csv; charset=utf-8");
      c.header("Content-Disposition", `attachment; filename="${fileName(o.basePath, ctx.clock.now())}"`);
      c.header("Cache-Control", "no-store");
      return c.body(text);
    },
  );
}
