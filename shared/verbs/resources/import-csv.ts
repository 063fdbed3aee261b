// POST {base}/import.csv: rows of a CSV file created or updated through the resource's own rules, all or
// nothing (docs/adr/0497, docs/csv-import.md). csv-parse reads the file; the header names the API's
// create fields (a reference also by name: `site` beside `site_id`; `cf_<name>` into custom_fields;
// the read shape's other fields, as an export writes them, are ignored; anything else is a 422 naming
// the column). Each row becomes the JSON body the API would take, validated by the kind's create schema
// (or its PATCH schema when the row names a record by `id` or by the kind's unique key), references
// resolved with one query per referenced kind, and then written by the engine's batched path
// (write-rows.ts) in the verb's one transaction. A dry run walks the same path and rolls it back.
import { parse } from "csv-parse/sync";
import { type AnyColumn, inArray, or } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import * as v from "valibot";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { CsvImportReport, CsvImportRow } from "../../schemas/csv-import.ts";
import { COMMON_READ_ONLY, MAX_INT4 } from "../../schemas/fields.ts";
import { csvCellValue } from "../../domain/custom-fields.ts";
import { definitionsOf } from "../custom-fields/definitions.ts";
import { defineVerb, type Verb, type VerbScope } from "../verb.ts";
import type { ResourceVerbs } from "./resource-verbs.ts";
import type { RowProblem } from "./write-rows.ts";

/** The most data rows one import takes; more is a 413 asking to split the file. */
export const CSV_IMPORT_MAX_ROWS = 50_000;
/** The largest body an import takes (the route's body limit). */
export const CSV_IMPORT_MAX_BYTES = 32 * 1024 * 1024;
/** What joins the items of a list cell (`tags`), as the export writes them (", "). */
export const CSV_LIST_SEPARATOR = ",";
/** A custom field's column: `cf_<name>` -> custom_fields.<name>. */
export const CUSTOM_FIELD_PREFIX = "cf_";
/** Row problems the error's `detail` lists (the report lists every row). */
const MAX_ISSUES = 50;

/** A kind a reference column names, looked up by id or by its name column. */
export interface CsvReference {
  table: PgTable;
  id: PgColumn;
  name: PgColumn;
  label: string;
}

export interface CsvImportSpec {
  /** The create body (writeBody) and the PATCH body of the resource. */
  create: v.GenericSchema;
  patch: v.GenericSchema;
  /** The read shape: its fields that are not writable (as an export writes them) are ignored. */
  item: v.GenericSchema;
  /** Reference fields (`site_id`) and what they name: the column without `_id` (`site`) takes the name. */
  references: Record<string, CsvReference>;
  /** A unique field that finds the record to update when a row has no id (a site's name). */
  key?: { field: string; column: PgColumn };
}

export interface CsvImportInput {
  text: string;
  dryRun: boolean;
}

type Body = Record<string, unknown>;
type Column =
  | { kind: "id" }
  | { kind: "field"; field: string; schema: v.GenericSchema }
  | { kind: "name"; field: string }
  | { kind: "custom"; name: string }
  | { kind: "ignored" };

interface Parsed {
  line: number;
  id?: number | undefined;
  body: Body;
  /** Reference field -> the name a name column gave. */
  names: Record<string, string>;
  errors: RowProblem[];
}

/** The entries of an object body built by writeBody (its pipe's first item is the object). */
function entriesOf(schema: v.GenericSchema): v.ObjectEntries {
  const s = schema as unknown as { entries?: v.ObjectEntries; pipe?: { entries?: v.ObjectEntries }[] };
  return s.entries ?? s.pipe?.[0]?.entries ?? {};
}

/** A field's schema without optional/nullable, and whether it takes null. */
function baseOf(schema: v.GenericSchema): { base: v.GenericSchema & { item?: v.GenericSchema }; nullable: boolean } {
  let s = schema as v.GenericSchema & { wrapped?: v.GenericSchema };
  let nullable = false;
  while (s.wrapped && ["optional", "nullable", "nullish", "exact_optional"].includes(s.type)) {
    if (s.type !== "optional" && s.type !== "exact_optional") nullable = true;
    s = s.wrapped as typeof s;
  }
  return { base: s, nullable };
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const BOOLEANS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, "1": true, "0": false };

/**
 * A cell as the JSON value the field takes: numbers, booleans, lists split on the separator, objects as
 * JSON; an empty cell is null where the field takes null (a PATCH then clears it), an empty list for a
 * list, else left out. A cell that does not read as its type is passed as text, so the schema's own
 * message names the problem.
 */
export function cellValue(schema: v.GenericSchema, cell: string): unknown {
  const { base, nullable } = baseOf(schema);
  const text = cell.trim();
  if (text === "") return base.type === "array" ? [] : nullable ? null : undefined;
  switch (base.type) {
    case "number":
      return NUMBER.test(text) ? Number(text) : cell;
    case "boolean":
      return BOOLEANS[text.toLowerCase()] ?? cell;
    case "array":
      if (base.item && ["string", "picklist"].includes(baseOf(base.item).base.type))
        return text
          .split(CSV_LIST_SEPARATOR)
          .map((t) => t.trim())
          .filter(Boolean);
      return jsonOr(text, cell);
    case "object":
    case "record":
    case "loose_object":
      return jsonOr(text, cell);
    default:
      return cell;
  }
}

function jsonOr(text: string, cell: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return cell;
  }
}

const invalid = (msg: string, loc: (string | number)[] = ["body"]) => ApiError.validation([{ loc, msg, type: "value_error" }]);

/** The header's columns, or a 422 naming every column that is none of the kind's. */
export function columnsOf(header: string[], spec: CsvImportSpec): Column[] {
  const writable = entriesOf(spec.create);
  const readable = new Set([...Object.keys(entriesOf(spec.item)), ...COMMON_READ_ONLY]);
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const columns = header.map((raw, i): Column => {
    const name = raw.trim();
    if (name === "") issues.push({ loc: ["body", "columns", i], msg: `Column ${i + 1} has no name.`, type: "value_error" });
    else if (seen.has(name)) issues.push({ loc: ["body", "columns", name], msg: `Column "${name}" is given twice.`, type: "value_error" });
    seen.add(name);
    if (name === "id") return { kind: "id" };
    if (name in writable) return { kind: "field", field: name, schema: writable[name]! };
    if (`${name}_id` in spec.references) return { kind: "name", field: `${name}_id` };
    if (name.startsWith(CUSTOM_FIELD_PREFIX) && name.length > CUSTOM_FIELD_PREFIX.length)
      return { kind: "custom", name: name.slice(CUSTOM_FIELD_PREFIX.length) };
    if (readable.has(name)) return { kind: "ignored" };
    if (name !== "")
      issues.push({
        loc: ["body", "columns", name],
        msg: `Unknown column "${name}". Columns are the create fields (${Object.keys(writable).join(", ")}), id, ${
          Object.keys(spec.references)
            .map((f) => f.replace(/_id$/, ""))
            .join(", ") || "no reference names"
        } (a reference by name) and cf_<name> (a custom field).`,
        type: "unknown_column",
      });
    return { kind: "ignored" };
  });
  if (issues.length > 0) throw ApiError.validation(issues);
  return columns;
}

/**
 * The line a record starts on: csv-parse counts the line it ends on, each \r and \n inside a quoted cell
 * as a line of its own; its raw text (skipped empty lines before it, its delimiter after) says how many.
 */
function startLine(raw: string, endLine: number): number {
  const inside = raw.replace(/^[\r\n]+/, "").replace(/(\r\n|\r|\n)$/, "");
  return endLine - (inside.match(/[\r\n]/g)?.length ?? 0);
}

/** Parses the file into rows of bodies (before the transaction): 422 for a malformed file or header, 413 past the row limit. */
export function parseCsv(text: string, spec: CsvImportSpec): { header: string[]; rows: Parsed[] } {
  let records: { record: string[]; raw: string; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      raw: true,
      skip_empty_lines: true,
      relax_column_count: false,
    }) as unknown as typeof records;
  } catch (err) {
    throw invalid(`The file is not valid CSV: ${(err as Error).message}`);
  }
  const [head, ...data] = records;
  if (!head) throw invalid("The file is empty: it needs a header row naming the columns, then one row per record.");
  if (data.length === 0) throw invalid("The file has a header but no rows.");
  if (data.length > CSV_IMPORT_MAX_ROWS)
    throw new ApiError(
      "PAYLOAD_TOO_LARGE",
      `The file has ${data.length.toLocaleString("en")} rows; an import takes at most ${CSV_IMPORT_MAX_ROWS.toLocaleString("en")}. Split it into several files.`,
    );
  const header = head.record.map((h) => h.trim());
  const columns = columnsOf(header, spec);
  const rows = data.map(({ record, raw, info }): Parsed => {
    const row: Parsed = { line: startLine(raw, info.lines), body: {}, names: {}, errors: [] };
    columns.forEach((c, i) => {
      const cell = record[i] ?? "";
      if (c.kind === "id") {
        const t = cell.trim();
        if (t === "") return;
        const id = /^\d+$/.test(t) ? Number(t) : Number.NaN;
        if (id >= 1 && id <= MAX_INT4) row.id = id;
        else row.errors.push({ field: "id", message: `Must be a positive integer id, got "${t}".` });
      } else if (c.kind === "field") {
        const value = cellValue(c.schema, cell);
        if (value !== undefined) row.body[c.field] = value;
      } else if (c.kind === "name") {
        if (cell.trim() !== "") row.names[c.field] = cell.trim();
      } else if (c.kind === "custom") {
        // Text here; typeCustomFields reads it as the field's type, and the custom fields' rules check it.
        if (cell.trim() === "") return;
        const custom = (row.body.custom_fields ??= {}) as Body;
        custom[c.name] = cell;
      }
    });
    // An empty name column clears the reference, unless its id column gave one.
    for (const c of columns) if (c.kind === "name" && row.names[c.field] === undefined && !(c.field in row.body)) row.body[c.field] = null;
    return row;
  });
  return { header, rows };
}

/** The CSV column a body field came from (`site` when the name was given, cf_<name> for a custom field). */
function columnOf(field: string, header: string[]): string {
  if (field.startsWith("custom_fields.")) return CUSTOM_FIELD_PREFIX + field.slice("custom_fields.".length);
  const top = field.split(".")[0]!;
  if (header.includes(top)) return top;
  const name = top.replace(/_id$/, "");
  if (name !== top && header.includes(name)) return name;
  if (top === "custom_fields") return header.find((h) => h.startsWith(CUSTOM_FIELD_PREFIX)) ?? top;
  return top;
}

/** References by name and id resolved with one query per referenced kind (inside the transaction). */
async function resolveReferences(s: VerbScope, rows: Parsed[], spec: CsvImportSpec): Promise<void> {
  for (const [field, ref] of Object.entries(spec.references)) {
    const names = new Set<string>();
    const ids = new Set<number>();
    for (const r of rows) {
      if (r.names[field] !== undefined) names.add(r.names[field]);
      const id = r.body[field];
      if (typeof id === "number" && Number.isInteger(id) && id >= 1 && id <= MAX_INT4) ids.add(id);
    }
    if (names.size === 0 && ids.size === 0) continue;
    const found: { id: number; name: string }[] = [];
    const nameList = [...names];
    const idList = [...ids];
    for (let i = 0; i < Math.max(nameList.length, idList.length); i += 5000) {
      const byName = nameList.slice(i, i + 5000);
      const byId = idList.slice(i, i + 5000);
      const where = or(byName.length ? inArray(ref.name, byName) : undefined, byId.length ? inArray(ref.id, byId) : undefined);
      found.push(...((await s.tx.select({ id: ref.id, name: ref.name }).from(ref.table).where(where)) as { id: number; name: string }[]));
    }
    const known = new Set(found.map((f) => f.id));
    const named = new Map<string, number[]>();
    for (const f of found) named.set(f.name, [...(named.get(f.name) ?? []), f.id]);
    for (const r of rows) {
      const name = r.names[field];
      const given = r.body[field];
      if (name !== undefined) {
        const matches = [...new Set(named.get(name) ?? [])];
        if (matches.length === 0) r.errors.push({ field, message: `No ${ref.label.toLowerCase()} is named "${name}".` });
        else if (matches.length > 1)
          r.errors.push({
            field,
            message: `${matches.length} ${ref.label.toLowerCase()}s are named "${name}" (ids ${matches.join(", ")}): give ${field} instead.`,
          });
        else if (typeof given === "number" && given !== matches[0])
          r.errors.push({ field, message: `${ref.label} "${name}" is id ${matches[0]}, not ${given}: give one of the two columns.` });
        else r.body[field] = matches[0];
      } else if (typeof given === "number" && ids.has(given) && !known.has(given))
        r.errors.push({ field, message: `${ref.label} ${given} was not found.` });
    }
  }
}

/** Rows without an id find the record holding their unique key (one query), which they then update. */
async function matchKeys(s: VerbScope, rows: Parsed[], spec: CsvImportSpec, table: PgTable, id: AnyColumn): Promise<void> {
  const key = spec.key;
  if (!key) return;
  const keyOf = (r: Parsed) => {
    const value = r.body[key.field];
    return r.id === undefined && typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };
  const values = [...new Set(rows.map(keyOf).filter((k): k is string => k !== undefined))];
  const holders = new Map<string, number>();
  for (let i = 0; i < values.length; i += 5000) {
    const found = (await s.tx
      .select({ id: id as PgColumn, key: key.column })
      .from(table)
      .where(inArray(key.column, values.slice(i, i + 5000)))) as { id: number; key: string }[];
    for (const f of found) holders.set(f.key, f.id);
  }
  const first = new Map<string, number>();
  rows.forEach((r, i) => {
    const k = keyOf(r);
    if (k === undefined) return;
    const earlier = first.get(k);
    if (earlier !== undefined) r.errors.push({ field: key.field, message: `${key.field} "${k}" is also on row ${earlier + 1}.` });
    else first.set(k, i);
    r.id = holders.get(k);
  });
}

/** The body checked by the create schema (a new record) or the PATCH schema (an update). */
function validate(row: Parsed, spec: CsvImportSpec): Body | undefined {
  const result = v.safeParse(row.id === undefined ? spec.create : spec.patch, row.body);
  if (result.success) return result.output as Body;
  for (const issue of result.issues)
    row.errors.push({ field: (issue.path ?? []).map((p) => String(p.key)).join("."), message: issue.message });
  return undefined;
}

class DryRunDone extends Error {
  readonly report: CsvImportReport;
  constructor(report: CsvImportReport) {
    super("dry run");
    this.report = report;
  }
}

/** The import verb of a resource: write scope, the file parsed before the transaction, the rows written in it. */
/** The `cf_<name>` cells read as their fields' types (the text of a field the kind lacks stays, and is refused). */
async function typeCustomFields(s: VerbScope, rows: Parsed[], kind: string | undefined): Promise<void> {
  if (!kind || !rows.some((r) => r.body.custom_fields)) return;
  const defs = new Map((await definitionsOf(s.tx, kind)).map((d) => [d.name, d]));
  for (const row of rows) {
    const custom = row.body.custom_fields as Body | undefined;
    if (!custom) continue;
    for (const [name, text] of Object.entries(custom)) {
      const def = defs.get(name);
      if (def && typeof text === "string") custom[name] = csvCellValue(def, text);
    }
  }
}

export function csvImportVerb<Api, Q, V>(
  verbs: ResourceVerbs<Api, Q, V, number>,
  spec: CsvImportSpec,
): Verb<CsvImportInput, CsvImportReport> {
  const { table, id } = verbs.kind;
  const verb = defineVerb(
    { scope: verbs.scopes.write, prepare: async (_ctx, input: CsvImportInput) => parseCsv(input.text, spec) },
    async (s, { dryRun }: CsvImportInput, { header, rows }) => {
      await resolveReferences(s, rows, spec);
      await typeCustomFields(s, rows, verbs.customFieldKind);
      await matchKeys(s, rows, spec, table, id);
      const bodies = rows.map((r) => (r.errors.length === 0 ? validate(r, spec) : undefined));
      const valid = rows.flatMap((r, i) => (bodies[i] && r.errors.length === 0 ? [i] : []));
      const outcomes = await verbs.writeRows(
        s,
        valid.map((i) => ({ id: rows[i]!.id, values: bodies[i] as V })),
      );
      const report = reportOf(rows, header, dryRun, valid, outcomes);
      if (report.totals.error > 0) throw refused(report);
      if (dryRun) throw new DryRunDone(report);
      return { ...report, applied: true };
    },
  );
  const run = async (args: { ctx: Parameters<typeof verb>[0]["ctx"]; input: CsvImportInput }) => {
    try {
      return await verb(args);
    } catch (err) {
      if (err instanceof DryRunDone) return err.report;
      if (err instanceof ApiError && dryRunReport(err, args.input.dryRun)) return err.extra.report as CsvImportReport;
      throw err;
    }
  };
  return Object.assign(run, { scope: verb.scope });
}

/** A dry run answers its errors in the report (200), not as a refusal. */
const dryRunReport = (err: ApiError, dryRun: boolean) => dryRun && err.extra.report !== undefined;

function reportOf(
  rows: Parsed[],
  header: string[],
  dryRun: boolean,
  valid: number[],
  outcomes: { action: CsvImportRow["action"]; id: number | null; errors: RowProblem[] }[],
): CsvImportReport {
  const byRow = new Map(valid.map((i, k) => [i, outcomes[k]!]));
  const totals = { rows: rows.length, created: 0, updated: 0, unchanged: 0, error: 0 };
  const list = rows.map((r, i): CsvImportRow => {
    const outcome = byRow.get(i) ?? { action: "error" as const, id: r.id ?? null, errors: r.errors };
    totals[outcome.action]++;
    return {
      row: i + 1,
      line: r.line,
      action: outcome.action,
      // A dry run's new records were rolled back: their ids name nothing.
      id: dryRun && outcome.action === "created" ? null : outcome.id,
      errors: outcome.errors.map((e) => ({ column: e.field === "" ? "" : columnOf(e.field, header), field: e.field, message: e.message })),
    };
  });
  return { dry_run: dryRun, applied: false, totals, rows: list };
}

/** 422 whose `report` is the whole per-row report and whose detail names the first problems. */
function refused(report: CsvImportReport): ApiError {
  const issues: ValidationIssue[] = [];
  for (const r of report.rows)
    for (const e of r.errors)
      if (issues.length < MAX_ISSUES) issues.push({ loc: ["body", "rows", r.row, e.column || "row"], msg: e.message, type: "row_error" });
  const fields = Object.fromEntries(issues.map((i) => [i.loc.slice(1).join("."), i.msg]));
  const what = `${report.totals.error} of the ${report.totals.rows} rows cannot be imported. Nothing was changed.`;
  return new ApiError("VALIDATION_ERROR", issues, { fields, summary: what, report });
}
