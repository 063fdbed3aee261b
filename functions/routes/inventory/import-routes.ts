// POST {base}/import.csv of an inventory resource: rows of a CSV file created or updated through the
// resource's rules in one transaction, all or nothing, with ?dry_run=true answering the same per-row
// report and changing nothing (docs/adr/0497, docs/csv-import.md). Not in the catalogue (the console's
// list import, like export.csv).
import type { Hono } from "hono";
import type * as v from "valibot";
import { CsvImportReport } from "../../../shared/schemas/csv-import.ts";
import { DryRunQuery } from "../../../shared/schemas/transfer.ts";
import { csvImportOf } from "../../../shared/verbs/inventory/csv-import.ts";
import {
  CSV_IMPORT_MAX_BYTES,
  CSV_IMPORT_MAX_ROWS,
  CSV_LIST_SEPARATOR,
  csvImportVerb,
} from "../../../shared/verbs/resources/import-csv.ts";
import type { ResourceVerbs } from "../../../shared/verbs/resources/resource-verbs.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import type { Tag } from "../../openapi/tags.ts";

export interface ImportRouteOptions<V> {
  verbs: ResourceVerbs<unknown, unknown, V, number>;
  tag: Tag;
  basePath: string;
  noun: [string, string];
  create: v.GenericSchema;
  patch: v.GenericSchema;
  item: v.GenericSchema;
}

export const importPath = (basePath: string) => `${basePath}/import.csv`;
/** Every import path ends so: the body limit gives them CSV_IMPORT_MAX_BYTES. */
export const IMPORT_CSV_SUFFIX = "/import.csv";
export { CSV_IMPORT_MAX_BYTES };

export function importRoutes<V>(app: Hono<AppEnv>, o: ImportRouteOptions<V>): void {
  const kind = csvImportOf(o.verbs.kind.entityType);
  const importCsv = csvImportVerb(o.verbs, { create: o.create, patch: o.patch, item: o.item, ...kind });
  const names = Object.keys(kind.references).map((f) => `\`${f.replace(/_id$/, "")}\``);
  route(
    app,
    {
      method: "post",
      path: importPath(o.basePath),
      tag: o.tag,
      scope: importCsv.scope,
      summary: `Create or update ${o.noun[1]} from a CSV file (all or none; dry run)`,
      description: [
        `A header row naming the create fields of POST ${o.basePath}, then one ${o.noun[0]} a row.`,
        `A row with \`id\`${kind.key ? ` (or a \`${kind.key.field}\` already taken)` : ""} updates that ${o.noun[0]} (only its columns change); any other row creates one.`,
        names.length > 0 ? `References by id (\`site_id\`) or by name (${names.join(", ")}).` : "",
        `Lists (\`tags\`) joined by "${CSV_LIST_SEPARATOR}"; \`cf_<name>\` columns go into \`custom_fields\`; an empty cell clears a field that can be empty; the read shape's other fields (an export's columns) are ignored, any other column is a 422 naming it.`,
        `Every row goes through the same rules, audit entries and events as POST and PATCH, in one transaction: 201 with the per-row report; when any row fails nothing is written and the 422's \`report\` lists every row. \`dry_run=true\` answers the same report with 200, errors included, and writes nothing.`,
        `At most ${CSV_IMPORT_MAX_ROWS.toLocaleString("en")} rows and ${CSV_IMPORT_MAX_BYTES / 1024 / 1024} MiB (413).`,
      ]
        .filter(Boolean)
        .join(" "),
      query: DryRunQuery,
      text: {
        contentType: "text/csv",
        description: "The CSV file: a header row, then one record a row (UTF-8, a byte-order mark allowed).",
      },
      response: {
        status: 201,
        schema: CsvImportReport,
        description: "The rows written, with the per-row report (a dry run: 200, applied false)",
      },
    },
    async (c, { query, text, reply }) => {
      const report = await importCsv({ ctx: verbContext(c), input: { text, dryRun: query.dry_run } });
      return reply(report, query.dry_run ? 200 : 201);
    },
  );
}
