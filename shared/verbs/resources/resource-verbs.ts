// The verbs the resource engine gives every resource: get, list, create, update, delete. Each is a verb
// of the one contract (shared/verbs/verb.ts) and carries its scope; writes run in one transaction with
// optimistic concurrency on `version`, tag sync, an audit entry with the before/after diff, and events on
// commit (the steps on one row are update-row.ts, which verbs outside the engine share).
import { type AnyColumn, eq, getTableColumns, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { defineRead, defineSnapshotRead, defineVerb, type Verb, type VerbScope } from "../verb.ts";
import { customFieldListParts } from "../custom-fields/list.ts";
import { customFieldValues } from "../custom-fields/values.ts";
import { recordChange } from "../event-rules/record-change.ts";
import { forgetReferences } from "./forget-references.ts";
import { type ListPage, listPage, type ListSpec, streamRows } from "./list.ts";
import { type KeyOf, type ResourceDef, type RowOf, scopesOf, type ValuesOf } from "./resource-def.ts";
import { type RowOutcome, type WriteRow, writeRows } from "./write-rows.ts";
import { auditRow, auditViewOf, checkVersion, emitAll, insertRow, loadRow, updateRow, versionOf } from "./update-row.ts";

export interface Versioned<Api> {
  item: Api;
  version: number | undefined;
}

export interface ResourceVerbs<Api, Q, V, K> {
  scopes: ReturnType<typeof scopesOf>;
  get: Verb<{ id: K }, Versioned<Api>>;
  list: Verb<Q, ListPage<Api>>;
  /**
   * The whole list in the list's order (its limit and offset aside), a chunk at a time to `write`, from
   * one snapshot (GET {base} with Accept: application/x-ndjson, docs/adr/0503); answers the row count.
   */
  stream: Verb<ListStreamInput<Api, Q>, number>;
  create: Verb<V, Versioned<Api>>;
  update: Verb<{ id: K; values: V; ifMatch?: number | undefined }, Versioned<Api>>;
  remove: Verb<{ id: K; ifMatch?: number | undefined }, void>;
  /** What the batched import needs of the kind: its table, id column, label and audit name. */
  kind: { label: string; entityType: string; table: PgTable; id: AnyColumn };
  /** The batched write of many rows in the caller's transaction, each with the create/update steps (write-rows.ts). */
  writeRows(s: VerbScope, rows: WriteRow<V>[]): Promise<RowOutcome[]>;
  /** Stored rows as the API answers them (the event rules' payloads of writes made outside these verbs: an import). */
  present(db: Db, rows: never[]): Promise<Api[]>;
  /** The object kind whose custom fields the resource's objects carry (its CSV export's cf_<name> columns). */
  customFieldKind?: string;
}

export interface ListStreamInput<Api, Q> {
  query: Q;
  /** Receives the items a chunk at a time; awaiting it is the stream's backpressure. */
  write(items: Api[]): Promise<void>;
}

type Fields = Record<string, unknown>;

/**
 * A kind whose table has a `custom_fields` column (every inventory kind, docs/custom-fields.md) carries
 * custom fields: a write's `custom_fields` are merged into the row's and checked against the kind's
 * definitions (the kind is its entityType, an object kind of ../inventory/object-kinds.ts) before the
 * kind's own toValues sees the rest; a create gets the defaults and is asked for the required fields.
 */
function withCustomFields<T extends PgTable, Api, Q extends ListParams, I extends AnyColumn>(
  def: ResourceDef<T, Api, Q, I>,
  column: AnyColumn,
): ResourceDef<T, Api, Q, I> {
  const kind = def.entityType;
  const { toValues } = def;
  return {
    ...def,
    async toValues(s, input, existing) {
      const { custom_fields: given, ...rest } = input as Fields;
      const values = toValues ? await toValues(s, rest as ValuesOf<T>, existing) : (rest as ValuesOf<T>);
      const stored = existing ? ((existing as Fields)[column.name] as Fields) : undefined;
      if (existing && given === undefined) return values;
      return { ...values, [column.name]: await customFieldValues(s, kind, stored, given as Fields | undefined) };
    },
  };
}

export function resourceVerbs<T extends PgTable, Api, Q extends ListParams, I extends AnyColumn>(
  declared: ResourceDef<T, Api, Q, I>,
): ResourceVerbs<Api, Q, ValuesOf<T>, KeyOf<I>> {
  type Row = RowOf<T>;
  type K = KeyOf<I>;
  const cfColumn = (getTableColumns(declared.table) as Record<string, AnyColumn>).custom_fields;
  const def = cfColumn ? withCustomFields(declared, cfColumn) : declared;
  const scopes = scopesOf(def);
  const spec: ListSpec = { ...def.list, table: def.table, id: def.columns.id };

  /** The list's spec (with a custom field as its sort key, if asked) and conditions, as a page and a stream use them. */
  const listParts = async (db: Db, query: Q): Promise<{ sorted: ListSpec; where: (SQL | undefined)[] }> => {
    const own = def.filters?.(query) ?? [];
    if (!cfColumn) return { sorted: spec, where: own };
    const cf = await customFieldListParts(db, def.entityType, cfColumn, query as unknown as Fields);
    const sorted = cf.sort ? { ...spec, sortable: { ...spec.sortable, [query.sort]: cf.sort } } : spec;
    return { sorted, where: [...own, ...cf.where] };
  };

  const one = async (db: Db, row: Row): Promise<Versioned<Api>> => ({
    item: (await def.present(db, [row]))[0]!,
    version: versionOf(def, row),
  });

  return {
    scopes,
    kind: { label: def.label, entityType: def.entityType, table: def.table, id: def.columns.id },
    writeRows: (s, rows) => writeRows(s, def, rows),
    present: (db, rows) => def.present(db, rows as Row[]),
    ...(cfColumn ? { customFieldKind: def.entityType } : {}),

    get: defineRead({ scope: scopes.read }, async (ctx, { id }: { id: K }) => one(ctx.db, await loadRow(ctx.db, def, id))),

    list: defineRead({ scope: scopes.read }, async (ctx, query: Q) => {
      const { sorted, where } = await listParts(ctx.db, query);
      return listPage<Row, Api>(ctx.db, sorted, query, where, (rows) => def.present(ctx.db, rows));
    }),

    stream: defineSnapshotRead({ scope: scopes.read }, async (ctx, { query, write }: ListStreamInput<Api, Q>) => {
      const { sorted, where } = await listParts(ctx.db, query);
      return streamRows<Row, Api>(ctx.db, sorted, query, where, (rows) => def.present(ctx.db, rows), write);
    }),

    create: defineVerb({ scope: scopes.write }, async (s, input: ValuesOf<T>) => one(s.tx, await insertRow(s, def, input))),

    update: defineVerb(
      { scope: scopes.write },
      async (s, { id, values: input, ifMatch }: { id: K; values: ValuesOf<T>; ifMatch?: number | undefined }) => {
        const after = await updateRow(
          s,
          def,
          { id, ifMatch },
          { values: (before) => (def.toValues ? def.toValues(s, input, before) : input) },
        );
        return one(s.tx, after);
      },
    ),

    remove: defineVerb({ scope: scopes.delete }, async (s, { id, ifMatch }: { id: K; ifMatch?: number | undefined }) => {
      const row = await loadRow(s.tx, def, id, true);
      checkVersion(def, id, row, ifMatch);
      await def.beforeDelete?.(s, row);
      await s.tx.delete(def.table).where(eq(def.columns.id, id));
      const forgotten = typeof id === "number" ? await forgetReferences(s, def.entityType, id) : 0;
      auditRow(s, def, "delete", id, { before: auditViewOf(def, row), references_removed: forgotten });
      emitAll(s, def, "delete", id);
      recordChange(s, def, "delete", id, row, undefined);
    }),
  };
}
