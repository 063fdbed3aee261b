// POST {list}/import.csv (docs/adr/0497, docs/csv-import.md): the per-row report (the query is DryRunQuery).
import * as v from "valibot";

export const CSV_ROW_ACTIONS = ["created", "updated", "unchanged", "error"] as const;

export const CsvImportRowError = v.object({
  /** The CSV column the problem is about ("" when it is about the row). */
  column: v.string(),
  /** The API field the same 422 names (site_id for a `site` column). */
  field: v.string(),
  message: v.string(),
});

export const CsvImportRow = v.object({
  /** The data row's number (1 is the first row under the header). */
  row: v.number(),
  /** The line of the file it starts on (the header is line 1). */
  line: v.number(),
  action: v.picklist(CSV_ROW_ACTIONS),
  /** The record's id (created, updated, unchanged; an update's id when it failed), else null (a dry run's creations). */
  id: v.nullable(v.number()),
  errors: v.array(CsvImportRowError),
});

export const CsvImportReport = v.object({
  dry_run: v.boolean(),
  /** Whether the rows were written (an apply without errors). */
  applied: v.boolean(),
  totals: v.object({
    rows: v.number(),
    created: v.number(),
    updated: v.number(),
    unchanged: v.number(),
    error: v.number(),
  }),
  rows: v.array(CsvImportRow),
});

export type CsvImportReport = v.InferOutput<typeof CsvImportReport>;
export type CsvImportRow = v.InferOutput<typeof CsvImportRow>;
