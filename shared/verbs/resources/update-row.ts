// The engine's steps on one row, inside a verb's transaction: load it (404), If-Match against its version
// (412), the write with a new version and tag sync, the audit entry with the before/after diff of what
// changed, and the events. resourceVerbs (resource-verbs.ts) is built from them, and so is a write of a
// kind whose rules do not fit a ResourceDef's hooks: `updateRow` takes the kind's own steps (its checks,
// its sealed secrets, what the change brings besides the row), as a monitor's PATCH does
// (shared/verbs/monitors/patch-monitor.ts).
import { type AnyColumn, eq, getTableColumns, type InferInsertModel, sql } from "drizzle-orm";
import type { PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { canonicalJson } from "../../audit/canonical.ts";
import type { Db } from "../../db/database.ts";
import { tags } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { recordChange } from "../event-rules/record-change.ts";
import type { VerbScope } from "../verb.ts";
import type { KeyOf, ResourceDef, RowOf, ValuesOf } from "./resource-def.ts";

/** What the row steps need of a kind: a ResourceDef has it all; a kind outside the engine declares only this. */
export type RowKind<T extends PgTable, I extends AnyColumn = AnyColumn> = Pick<
  ResourceDef<T, unknown, ListParams, I>,
  "label" | "entityType" | "auditPrefix" | "auditCategory" | "table" | "columns" | "channels" | "versionOf" | "auditView"
> &
  // The API shape, for the event rules' payloads (../event-rules/record-change.ts); a kind without one sends none.
  Partial<Pick<ResourceDef<T, unknown, ListParams, I>, "present">>;

export type Fields = Record<string, unknown>;

const MAX_ID = 2_147_483_647;

// drizzle types what a query on a table given as a type parameter returns loosely: it is the table's rows.
const fields = (row: unknown) => row as Fields;

export async function loadRow<T extends PgTable, I extends AnyColumn>(
  db: Db,
  kind: RowKind<T, I>,
  id: KeyOf<I>,
  lock = false,
): Promise<RowOf<T>> {
  // A well-formed id past the serial range names nothing: 404, not a database error.
  if (typeof id === "number" && id > MAX_ID) throw ApiError.notFound(kind.label, id);
  const query = db
    .select()
    .from(kind.table as PgTable)
    .where(eq(kind.columns.id, id));
  const [row] = (await (lock ? query.for("update") : query)) as RowOf<T>[];
  if (!row) throw ApiError.notFound(kind.label, id);
  return row;
}

/** The row's version (ETag / If-Match): `versionOf`, else the version column, else none. */
export function versionOf<T extends PgTable>(kind: RowKind<T>, row: RowOf<T>): number | undefined {
  if (kind.versionOf) return kind.versionOf(row);
  const version = kind.columns.version ? fields(row).version : undefined;
  return typeof version === "number" ? version : undefined;
}

/** 412 when If-Match names another version than the row's (an unversioned kind checks nothing). */
export function checkVersion<T extends PgTable>(kind: RowKind<T>, id: unknown, row: RowOf<T>, ifMatch: number | undefined): void {
  if (ifMatch === undefined) return;
  const version = versionOf(kind, row);
  if (version !== undefined && version !== ifMatch)
    throw new ApiError(
      "PRECONDITION_FAILED",
      `${kind.label} ${String(id)} changed since it was read (version ${version}, If-Match ${ifMatch}).`,
    );
}

/** The columns that differ, before and after (all of them for a new row), without the bookkeeping. */
export function diff(before: Fields | undefined, after: Fields): { before?: Fields; after: Fields } {
  const skip = new Set(["updated_at", "version", "created_at"]);
  if (!before) return { after: Object.fromEntries(Object.entries(after).filter(([k]) => !skip.has(k))) };
  const changed = Object.keys(after).filter((k) => !skip.has(k) && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return {
    before: Object.fromEntries(changed.map((k) => [k, before[k]])),
    after: Object.fromEntries(changed.map((k) => [k, after[k]])),
  };
}

/** What the audit diff shows of a row. */
export function auditViewOf<T extends PgTable>(kind: RowKind<T>, row: RowOf<T>): Fields {
  return kind.auditView ? kind.auditView(row) : fields(row);
}

/**
 * The create step: the kind's toValues, tag sync, the insert, the audit entry and the events. The engine's
 * create is this; a verb that creates a row of an engine kind on its own terms (a prefix allocated
 * inside its parent) calls it too, so the row is checked and recorded the same way.
 */
export async function insertRow<T extends PgTable, I extends AnyColumn>(
  s: VerbScope,
  def: Pick<ResourceDef<T, unknown, ListParams, I>, keyof RowKind<T, I> | "toValues">,
  input: ValuesOf<T>,
): Promise<RowOf<T>> {
  const values = def.toValues ? await def.toValues(s, input, undefined) : input;
  if (def.columns.tags) await syncTags(s, fields(values).tags);
  // The create schema requires the columns the table cannot default, or toValues derives them (a slug).
  const [row] = (await s.tx
    .insert(def.table)
    .values(values as InferInsertModel<T>)
    .returning()) as RowOf<T>[];
  const id = fields(row)[idProperty(def.table, def.columns.id)];
  auditRow(s, def, "create", id, diff(undefined, auditViewOf(def, row!)));
  emitAll(s, def, "create", id);
  recordChange(s, def, "create", id, undefined, row);
  return row!;
}

/** The property a column is read under in the table's rows. */
export function idProperty(table: PgTable, column: AnyColumn): string {
  return Object.entries(getTableColumns(table)).find(([, c]) => c === column)![0];
}

export async function syncTags(s: VerbScope, names: unknown): Promise<void> {
  if (!Array.isArray(names) || names.length === 0) return;
  await s.tx
    .insert(tags)
    .values(names.map((name: string) => ({ name })))
    .onConflictDoNothing();
}

/** The audit entry of a write: action `<prefix>.<what>` in the kind's category. */
export function auditRow(s: VerbScope, kind: RowKind<PgTable>, what: string, id: unknown, entryDiff: Fields): void {
  s.audit({
    action: `${kind.auditPrefix ?? kind.entityType}.${what}`,
    category: kind.auditCategory ?? "inventory",
    entity_type: kind.entityType,
    entity_id: id as string | number,
    diff: entryDiff,
  });
}

export function emitAll(s: VerbScope, kind: RowKind<PgTable>, action: string, id: unknown): void {
  for (const channel of kind.channels ?? ["inventory"]) s.emit(channel, { entity: kind.entityType, action, id });
}

/** What one update does besides the engine's steps. */
export interface UpdateSteps<T extends PgTable> {
  /** The column values to write, from the locked row as it is: checks that refuse (422, 409) go here, before anything is written. */
  values(before: RowOf<T>): Promise<ValuesOf<T>> | ValuesOf<T>;
  /** Values that all equal the row's write nothing (no new version, no audit entry, no event); by default every update writes. */
  skipUnchanged?: boolean;
  /**
   * What the change brings besides the row (runs cancelled, a worker woken), after the write in the same
   * transaction; `changed` names the columns the audit diff shows. Returns entries the audit entry adds.
   */
  after?(before: RowOf<T>, after: RowOf<T>, changed: string[]): Promise<Fields | void>;
}

/**
 * Updates one row: locked, If-Match checked, the steps' values written with `updated_at` and a new
 * version, tags synced; when something changed, an audit entry with the before/after diff (of the kind's
 * audit view) and the kind's events. Answers the row as written (or as it was, when nothing was).
 */
export async function updateRow<T extends PgTable, I extends AnyColumn>(
  s: VerbScope,
  kind: RowKind<T, I>,
  target: { id: KeyOf<I>; ifMatch?: number | undefined },
  steps: UpdateSteps<T>,
): Promise<RowOf<T>> {
  const { id } = target;
  const before = await loadRow(s.tx, kind, id, true);
  checkVersion(kind, id, before, target.ifMatch);
  const values = await steps.values(before);
  if (steps.skipUnchanged && !changes(fields(before), fields(values))) return before;
  if (kind.columns.tags) await syncTags(s, fields(values).tags);
  const set: PgUpdateSetSource<T> = {
    ...values,
    updated_at: s.now,
    ...(kind.columns.version ? { version: sql`${kind.columns.version} + 1` } : {}),
  };
  const [after] = (await s.tx.update(kind.table).set(set).where(eq(kind.columns.id, id)).returning()) as RowOf<T>[];
  const d = diff(auditViewOf(kind, before), auditViewOf(kind, after!));
  const added = (await steps.after?.(before, after!, Object.keys(d.after))) ?? {};
  if (Object.keys(d.after).length > 0 || Object.keys(added).length > 0) {
    auditRow(s, kind, "update", id, { ...d, ...added });
    emitAll(s, kind, "update", id);
    recordChange(s, kind, "update", id, before, after);
  }
  return after!;
}

/** Whether any value given differs from the row's (compared as canonical JSON: jsonb keeps no key order). */
function changes(row: Fields, values: Fields): boolean {
  return Object.entries(values).some(([k, v]) => v !== undefined && canonicalJson(v) !== canonicalJson(row[k]));
}
