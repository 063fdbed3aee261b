// The verbs the resource engine gives every resource: get, list, create, update, delete. Each is a verb
// of the one contract (shared/verbs/verb.ts) and carries its scope; writes run in one transaction with
// optimistic concurrency on `version`, tag sync, an audit entry with the before/after diff, and events on
// commit.
import { type AnyColumn, eq, getTableColumns, type InferInsertModel, sql } from "drizzle-orm";
import type { PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import { tags } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { defineRead, defineVerb, type Verb, type VerbScope } from "../verb.ts";
import { forgetReferences } from "./forget-references.ts";
import { type ListPage, listPage, type ListSpec } from "./list.ts";
import { type KeyOf, type ResourceDef, type RowOf, scopesOf, type ValuesOf } from "./resource-def.ts";

export interface Versioned<Api> {
  item: Api;
  version: number | undefined;
}

export interface ResourceVerbs<Api, Q, V, K> {
  scopes: ReturnType<typeof scopesOf>;
  get: Verb<{ id: K }, Versioned<Api>>;
  list: Verb<Q, ListPage<Api>>;
  create: Verb<V, Versioned<Api>>;
  update: Verb<{ id: K; values: V; ifMatch?: number | undefined }, Versioned<Api>>;
  remove: Verb<{ id: K; ifMatch?: number | undefined }, void>;
}

const MAX_ID = 2_147_483_647;

type Fields = Record<string, unknown>;

function diff(before: Fields | undefined, after: Fields): { before?: Fields; after: Fields } {
  const skip = new Set(["updated_at", "version", "created_at"]);
  if (!before) return { after: Object.fromEntries(Object.entries(after).filter(([k]) => !skip.has(k))) };
  const changed = Object.keys(after).filter((k) => !skip.has(k) && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return {
    before: Object.fromEntries(changed.map((k) => [k, before[k]])),
    after: Object.fromEntries(changed.map((k) => [k, after[k]])),
  };
}

async function syncTags(s: VerbScope, names: unknown): Promise<void> {
  if (!Array.isArray(names) || names.length === 0) return;
  await s.tx
    .insert(tags)
    .values(names.map((name: string) => ({ name })))
    .onConflictDoNothing();
}

/** The property a column is read under in the table's rows. */
function propertyOf(table: PgTable, column: AnyColumn): string {
  return Object.entries(getTableColumns(table)).find(([, c]) => c === column)![0];
}

export function resourceVerbs<T extends PgTable, Api, Q extends ListParams, I extends AnyColumn>(
  def: ResourceDef<T, Api, Q, I>,
): ResourceVerbs<Api, Q, ValuesOf<T>, KeyOf<I>> {
  type Row = RowOf<T>;
  type K = KeyOf<I>;
  const scopes = scopesOf(def);
  const spec: ListSpec = { ...def.list, table: def.table, id: def.columns.id };
  const idKey = propertyOf(def.table, def.columns.id);
  const audited = def.auditPrefix ?? def.entityType;
  // drizzle types what a query on a table given as a type parameter returns loosely: it is the table's rows.
  const rowsOf = (rows: unknown) => rows as Row[];
  // The engine reads a few columns by name whatever the table: the key, version and tags.
  const fields = (row: Row | ValuesOf<T>) => row as Fields;
  const keyOf = (row: Row) => fields(row)[idKey] as K;

  async function loadRow(db: Db, id: K, lock = false): Promise<Row> {
    // A well-formed id past the serial range names nothing: 404, not a database error.
    if (typeof id === "number" && id > MAX_ID) throw ApiError.notFound(def.label, id);
    const query = db.select().from(def.table as PgTable).where(eq(def.columns.id, id));
    const [row] = rowsOf(await (lock ? query.for("update") : query));
    if (!row) throw ApiError.notFound(def.label, id);
    return row;
  }

  function checkVersion(row: Row, ifMatch: number | undefined): void {
    if (ifMatch === undefined || !def.columns.version) return;
    const version = fields(row).version;
    if (version !== ifMatch)
      throw new ApiError("PRECONDITION_FAILED", `${def.label} ${String(keyOf(row))} changed since it was read (version ${String(version)}, If-Match ${ifMatch}).`);
  }

  function emitAll(s: VerbScope, action: string, id: K): void {
    for (const channel of def.channels ?? ["inventory"]) s.emit(channel, { entity: def.entityType, action, id });
  }

  const one = async (db: Db, row: Row): Promise<Versioned<Api>> => {
    const version = fields(row).version;
    return { item: (await def.present(db, [row]))[0]!, version: typeof version === "number" ? version : undefined };
  };

  return {
    scopes,

    get: defineRead({ scope: scopes.read }, async (ctx, { id }: { id: K }) => one(ctx.db, await loadRow(ctx.db, id))),

    list: defineRead({ scope: scopes.read }, (ctx, query: Q) =>
      listPage<Row, Api>(ctx.db, spec, query, def.filters?.(query), (rows) => def.present(ctx.db, rows)),
    ),

    create: defineVerb({ scope: scopes.write }, async (s, input: ValuesOf<T>) => {
      const values = def.toValues ? await def.toValues(s, input, undefined) : input;
      if (def.columns.tags) await syncTags(s, fields(values).tags);
      // The create schema requires the columns the table cannot default, or toValues derives them (a slug).
      const [row] = rowsOf(await s.tx.insert(def.table).values(values as InferInsertModel<T>).returning());
      const id = keyOf(row!);
      s.audit({ action: `${audited}.create`, category: "inventory", entity_type: def.entityType, entity_id: id, diff: diff(undefined, fields(row!)) });
      emitAll(s, "create", id);
      return one(s.tx, row!);
    }),

    update: defineVerb({ scope: scopes.write }, async (s, { id, values: input, ifMatch }: { id: K; values: ValuesOf<T>; ifMatch?: number | undefined }) => {
      const before = await loadRow(s.tx, id, true);
      checkVersion(before, ifMatch);
      const values = def.toValues ? await def.toValues(s, input, before) : input;
      if (def.columns.tags) await syncTags(s, fields(values).tags);
      const set: PgUpdateSetSource<T> = { ...values, updated_at: s.now, ...(def.columns.version ? { version: sql`${def.columns.version} + 1` } : {}) };
      const [after] = rowsOf(await s.tx.update(def.table).set(set).where(eq(def.columns.id, id)).returning());
      const d = diff(fields(before), fields(after!));
      if (Object.keys(d.after).length > 0) {
        s.audit({ action: `${audited}.update`, category: "inventory", entity_type: def.entityType, entity_id: id, diff: d });
        emitAll(s, "update", id);
      }
      return one(s.tx, after!);
    }),

    remove: defineVerb({ scope: scopes.delete }, async (s, { id, ifMatch }: { id: K; ifMatch?: number | undefined }) => {
      const row = await loadRow(s.tx, id, true);
      checkVersion(row, ifMatch);
      await def.beforeDelete?.(s, row);
      await s.tx.delete(def.table).where(eq(def.columns.id, id));
      const forgotten = typeof id === "number" ? await forgetReferences(s, def.entityType, id) : 0;
      s.audit({ action: `${audited}.delete`, category: "inventory", entity_type: def.entityType, entity_id: id, diff: { before: row, references_removed: forgotten } });
      emitAll(s, "delete", id);
    }),
  };
}
