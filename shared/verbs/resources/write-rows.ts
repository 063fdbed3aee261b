// The engine's batched write of many rows of one kind inside the caller's transaction (the CSV import,
// docs/adr/0497): each row gets exactly the steps the create and update verbs give one row — the kind's
// `toValues` rules, tag sync, a new version and updated_at on an update, an audit entry with the
// before/after diff, the kind's events and the event rules' record — but the rows to update are loaded
// and locked with one statement per chunk, and new rows inserted and changed rows
// updated with one statement per chunk (the rows as one JSON parameter, db/json-rows.ts), and the audit
// entries go in with one statement per chunk (audit/chain.ts).
// A chunk the database refuses is retried row by row in savepoints, so every row it refuses is named.
// Rows are never silently skipped: each answers created, updated, unchanged or error.
import { type AnyColumn, getTableColumns, inArray, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { insertJsonRows, updateJsonRows } from "../../db/json-rows.ts";
import { canonicalJson } from "../../audit/canonical.ts";
import { tags } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { inputError } from "../database-errors/input-errors.ts";
import { recordChange } from "../event-rules/record-change.ts";
import type { VerbScope } from "../verb.ts";
import type { ResourceDef, RowOf, ValuesOf } from "./resource-def.ts";
import { auditRow, auditViewOf, diff, emitAll, type Fields, idProperty } from "./update-row.ts";

/** One row to write: with `id` an update of that row (only the fields given change), without a create. */
export interface WriteRow<V> {
  id?: number | undefined;
  values: V;
}

export interface RowProblem {
  /** The body field the problem is about ("" when it is about the row as a whole). */
  field: string;
  message: string;
}

export type RowAction = "created" | "updated" | "unchanged" | "error";

export interface RowOutcome {
  action: RowAction;
  id: number | null;
  errors: RowProblem[];
}

/** Rows locked, written or read back per statement (each batch is at most this many rows). */
const CHUNK = 1000;

type Def<T extends PgTable> = Pick<
  ResourceDef<T, unknown, ListParams, AnyColumn>,
  | "label"
  | "entityType"
  | "auditPrefix"
  | "auditCategory"
  | "table"
  | "columns"
  | "channels"
  | "versionOf"
  | "auditView"
  | "present"
  | "toValues"
  | "writesAlone"
>;

/** The problems an API error names, as the 422/409/404 the verb would answer carries them. */
export function problemsOf(err: unknown): RowProblem[] {
  const api = err instanceof ApiError ? err : inputError(err);
  if (!api) throw err;
  if (Array.isArray(api.detail)) return api.detail.map((i) => ({ field: i.loc.filter((p) => p !== "body").join("."), message: i.msg }));
  const fields = api.extra.fields;
  if (fields && typeof fields === "object") {
    const entries = Object.entries(fields as Record<string, unknown>);
    if (entries.length > 0)
      return entries.map(([field, msg]) => ({ field, message: msg === "already taken" ? (api.detail as string) : String(msg) }));
  }
  return [{ field: "", message: api.detail as string }];
}

/** Whether any value given differs from the row's (canonical JSON: jsonb keeps no key order). */
export function changesRow(row: Fields, values: Fields): boolean {
  return Object.entries(values).some(([k, v]) => v !== undefined && canonicalJson(v) !== canonicalJson(row[k] ?? null));
}

interface Pending<T extends PgTable> {
  at: number;
  before: RowOf<T> | undefined;
  /** The row as given, and as the kind's toValues made it. */
  input: ValuesOf<T>;
  values: ValuesOf<T>;
}

/**
 * Writes `rows` in order in the caller's transaction and answers one outcome per row. Nothing is rolled
 * back here: a caller that must be all-or-nothing throws when any outcome is an error (the transaction
 * then undoes the rows written), and a dry run throws in any case after reading the outcomes.
 */
export async function writeRows<T extends PgTable>(s: VerbScope, def: Def<T>, rows: WriteRow<ValuesOf<T>>[]): Promise<RowOutcome[]> {
  const outcomes: RowOutcome[] = rows.map(() => ({ action: "unchanged", id: null, errors: [] }));
  const fail = (at: number, problems: RowProblem[]) => {
    outcomes[at] = { action: "error", id: rows[at]!.id ?? null, errors: problems };
  };
  const idKey = idProperty(def.table, def.columns.id);
  const idOf = (row: RowOf<T>) => (row as Fields)[idKey] as number;

  // The rows to update, locked, a chunk per statement; an id given twice is refused (the later row).
  const existing = new Map<number, RowOf<T>>();
  const ids = [...new Set(rows.flatMap((r) => (r.id === undefined ? [] : [r.id])))];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const found = (await s.tx
      .select()
      .from(def.table as PgTable)
      .where(inArray(def.columns.id, ids.slice(i, i + CHUNK)))
      .for("update")) as RowOf<T>[];
    for (const row of found) existing.set(idOf(row), row);
  }
  const seen = new Map<number, number>();
  let batch: Pending<T>[] = [];
  for (let at = 0; at < rows.length; at++) {
    const { id, values: input } = rows[at]!;
    let before: RowOf<T> | undefined;
    if (id !== undefined) {
      before = existing.get(id);
      if (!before) {
        fail(at, [{ field: "id", message: `${def.label} ${id} was not found.` }]);
        continue;
      }
      const first = seen.get(id);
      if (first !== undefined) {
        fail(at, [{ field: "id", message: `${def.label} ${id} is also on row ${first + 1}.` }]);
        continue;
      }
      seen.set(id, at);
      outcomes[at]!.id = id;
      if (!changesRow(before as Fields, input as Fields)) continue;
    }
    // A row whose rules read rows this import may write (a node placed in a rack) waits for the rows
    // before it and is written on its own, so its checks see them.
    const alone = def.writesAlone?.(input, before) ?? false;
    if (alone) await flush(s, def, batch, outcomes, fail, idOf);
    if (alone) batch = [];
    let values: ValuesOf<T>;
    try {
      values = def.toValues ? await def.toValues(s, input, before) : input;
    } catch (err) {
      fail(at, problemsOf(err));
      continue;
    }
    batch.push({ at, before, input, values });
    if (alone || batch.length >= CHUNK) {
      await flush(s, def, batch, outcomes, fail, idOf);
      batch = [];
    }
  }
  await flush(s, def, batch, outcomes, fail, idOf);
  return outcomes;
}

async function flush<T extends PgTable>(
  s: VerbScope,
  def: Def<T>,
  batch: Pending<T>[],
  outcomes: RowOutcome[],
  fail: (at: number, problems: RowProblem[]) => void,
  idOf: (row: RowOf<T>) => number,
): Promise<void> {
  if (batch.length === 0) return;
  if (def.columns.tags) {
    const names = new Set<string>();
    for (const p of batch) for (const t of ((p.values as Fields).tags as string[] | undefined) ?? []) names.add(t);
    if (names.size > 0)
      await s.tx
        .insert(tags)
        .values([...names].map((name) => ({ name })))
        .onConflictDoNothing();
  }
  const creates = batch.filter((p) => !p.before);
  const updates = batch.filter((p) => p.before);
  const columns = getTableColumns(def.table) as Record<string, PgColumn>;
  const versionName = def.columns.version?.name;
  const bump = sql.join(
    [
      ...("updated_at" in columns ? [sql`"updated_at" = ${s.now.toISOString()}::timestamptz`] : []),
      ...(versionName ? [sql`${sql.raw(`"${versionName}" = t."${versionName}" + 1`)}`] : []),
    ],
    sql`, `,
  );
  // Rows with the same fields go in one statement (an insert leaves the others to their defaults).
  const write = (list: Pending<T>[], creating: boolean) =>
    s.savepoint(async (tx) => {
      const ids: number[] = new Array(list.length);
      const groups = new Map<string, number[]>();
      list.forEach((p, i) => {
        const keys = Object.keys(p.values)
          .filter((k) => (p.values as Fields)[k] !== undefined && k in columns)
          .sort()
          .join(",");
        groups.set(keys, [...(groups.get(keys) ?? []), i]);
      });
      for (const [joined, at] of groups) {
        const keys = joined === "" ? [] : joined.split(",");
        const names = keys.map((k) => columns[k]!.name);
        const records = at.map((i) => {
          const values = list[i]!.values as Fields;
          const record = Object.fromEntries(keys.map((k) => [columns[k]!.name, values[k]]));
          return creating ? record : { ...record, [def.columns.id.name]: idOf(list[i]!.before!) };
        });
        const written = creating
          ? await insertJsonRows(tx, def.table, names, records)
          : (await updateJsonRows(tx, def.table, names, records, bump), at.map((i) => idOf(list[i]!.before!)));
        at.forEach((i, k) => {
          ids[i] = written[k]!;
        });
      }
      const rows = new Map<number, RowOf<T>>();
      for (let i = 0; i < ids.length; i += CHUNK)
        for (const row of (await tx
          .select()
          .from(def.table as PgTable)
          .where(inArray(def.columns.id, ids.slice(i, i + CHUNK)))) as RowOf<T>[])
          rows.set(idOf(row), row);
      return ids.map((id) => rows.get(id)!);
    });
  const insert = (list: Pending<T>[]) => write(list, true);
  const update = (list: Pending<T>[]) => write(list, false);
  await writeChunk(
    s,
    def,
    creates,
    insert,
    (p, row) => {
      const id = idOf(row);
      outcomes[p.at] = { action: "created", id, errors: [] };
      auditRow(s, def, "create", id, diff(undefined, auditViewOf(def, row)));
      emitAll(s, def, "create", id);
      recordChange(s, def, "create", id, undefined, row);
    },
    fail,
  );
  await writeChunk(
    s,
    def,
    updates,
    update,
    (p, row) => {
      const id = idOf(row);
      outcomes[p.at] = { action: "updated", id, errors: [] };
      const d = diff(auditViewOf(def, p.before!), auditViewOf(def, row));
      if (Object.keys(d.after).length === 0) return;
      auditRow(s, def, "update", id, d);
      emitAll(s, def, "update", id);
      recordChange(s, def, "update", id, p.before, row);
    },
    fail,
  );
}

/** One statement for the chunk; when the database refuses it, each row alone to name the ones it refuses. */
async function writeChunk<T extends PgTable>(
  s: VerbScope,
  def: Def<T>,
  list: Pending<T>[],
  write: (list: Pending<T>[]) => Promise<RowOf<T>[]>,
  done: (p: Pending<T>, row: RowOf<T>) => void,
  fail: (at: number, problems: RowProblem[]) => void,
): Promise<void> {
  if (list.length === 0) return;
  let written: RowOf<T>[] | undefined;
  try {
    written = await write(list);
  } catch (err) {
    if (list.length === 1) return fail(list[0]!.at, problemsOf(err));
    problemsOf(err); // rethrows what is not about the values
  }
  if (written) {
    for (let i = 0; i < list.length; i++) done(list[i]!, written[i]!);
    return;
  }
  // Row by row, each checked again by the kind's rules first: they now see the rows written before it
  // (a name the file gives twice), and say so as the API would.
  for (const p of list) {
    try {
      const values = def.toValues ? await def.toValues(s, p.input, p.before) : p.input;
      const [row] = await write([{ ...p, values }]);
      done(p, row!);
    } catch (err) {
      fail(p.at, problemsOf(err));
    }
  }
}
