// The verbs every inventory resource shares: get, list, create, update, delete. A resource describes
// itself once (ResourceDef); the verbs do the rest the same way for all: scope check, one transaction,
// optimistic concurrency on `version`, tag sync, an audit entry with the before/after diff, and
// `inventory`/`topology` events on commit.
import { eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import { tags } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { VerbContext } from "../verb-context.ts";
import { type EventChannel, requireScope, runInTransaction, type VerbScope } from "../verb.ts";
import { forgetReferences } from "./forget-references.ts";
import { type ListPage, listPage, type ListSpec } from "./list.ts";

type Row = Record<string, unknown> & { id: number };

export interface ResourceDef<Api> {
  /** For messages: "Hardware node". */
  label: string;
  /** For scopes, audit and events: "hardware" (scopes read:hardware, write:hardware, delete:hardware). */
  entityType: string;
  table: PgTable;
  columns: { id: AnyColumn; version?: AnyColumn; tags?: AnyColumn };
  /** The scope names' resource part when it differs from entityType (e.g. "compute" for compute units). */
  scopeResource?: string;
  channels?: EventChannel[];
  list: Omit<ListSpec, "table" | "id">;
  /** Validated input -> column values: derive fields, check references with clear errors. */
  toValues?(s: VerbScope, input: Record<string, unknown>, existing: Row | undefined): Promise<Record<string, unknown>>;
  /** Refuses (409 listing dependents) or unlinks before the row goes. */
  beforeDelete?(s: VerbScope, row: Row): Promise<void>;
  /** Rows -> API shapes; at most one extra query for the whole page. */
  present(db: Db, rows: Row[]): Promise<Api[]>;
}

export function scopesOf(def: ResourceDef<unknown>) {
  const r = def.scopeResource ?? def.entityType;
  return { read: `read:${r}`, write: `write:${r}`, delete: `delete:${r}` };
}

/** `"3"`, `W/"3"` -> 3; anything else is a 412 (it can never match). */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const m = /^(?:W\/)?"?(\d+)"?$/.exec(header.trim());
  if (!m) throw new ApiError("PRECONDITION_FAILED", "If-Match must be the ETag of the current version.");
  return Number(m[1]);
}

const MAX_ID = 2_147_483_647;

async function loadRow(db: Db, def: ResourceDef<unknown>, id: number, lock = false): Promise<Row> {
  // A well-formed id past the serial range names nothing: 404, not a database error.
  if (id > MAX_ID) throw ApiError.notFound(def.label, id);
  const query = db.select().from(def.table).where(eq(def.columns.id, id));
  const [row] = (await (lock ? query.for("update") : query)) as Row[];
  if (!row) throw ApiError.notFound(def.label, id);
  return row;
}

function checkVersion(def: ResourceDef<unknown>, row: Row, ifMatch: number | undefined): void {
  if (ifMatch === undefined || !def.columns.version) return;
  if (row.version !== ifMatch)
    throw new ApiError("PRECONDITION_FAILED", `${def.label} ${row.id} changed since it was read (version ${String(row.version)}, If-Match ${ifMatch}).`);
}

async function syncTags(s: VerbScope, values: Record<string, unknown>): Promise<void> {
  const names = values.tags;
  if (!Array.isArray(names) || names.length === 0) return;
  await s.tx
    .insert(tags)
    .values(names.map((name: string) => ({ name })))
    .onConflictDoNothing();
}

function diff(before: Row | undefined, after: Row): { before?: Record<string, unknown>; after: Record<string, unknown> } {
  const skip = new Set(["updated_at", "version", "created_at"]);
  if (!before) return { after: Object.fromEntries(Object.entries(after).filter(([k]) => !skip.has(k))) };
  const changed = Object.keys(after).filter((k) => !skip.has(k) && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return {
    before: Object.fromEntries(changed.map((k) => [k, before[k]])),
    after: Object.fromEntries(changed.map((k) => [k, after[k]])),
  };
}

function emitAll(s: VerbScope, def: ResourceDef<unknown>, action: string, id: number): void {
  for (const channel of def.channels ?? ["inventory"]) s.emit(channel, { entity: def.entityType, action, id });
}

export interface Versioned<Api> {
  item: Api;
  version: number | undefined;
}

export function resourceVerbs<Api>(def: ResourceDef<Api>) {
  const scopes = scopesOf(def as ResourceDef<unknown>);
  const generic = def as ResourceDef<unknown>;
  const one = async (db: Db, row: Row): Promise<Versioned<Api>> => ({
    item: (await def.present(db, [row]))[0]!,
    version: typeof row.version === "number" ? row.version : undefined,
  });

  return {
    scopes,
    async get({ ctx, id }: { ctx: VerbContext; id: number }): Promise<Versioned<Api>> {
      requireScope(ctx, scopes.read);
      return one(ctx.db, await loadRow(ctx.db, generic, id));
    },

    async list({ ctx, params, where = [] }: { ctx: VerbContext; params: ListParams; where?: (SQL | undefined)[] }): Promise<ListPage<Api>> {
      requireScope(ctx, scopes.read);
      return listPage<Row, Api>(ctx.db, { ...def.list, table: def.table, id: def.columns.id }, params, where, (rows) => def.present(ctx.db, rows));
    },

    async create({ ctx, input }: { ctx: VerbContext; input: Record<string, unknown> }): Promise<Versioned<Api>> {
      requireScope(ctx, scopes.write);
      return runInTransaction(ctx, {}, async (s) => {
        const values = def.toValues ? await def.toValues(s, input, undefined) : input;
        await syncTags(s, values);
        const [row] = (await s.tx.insert(def.table).values(values as never).returning()) as Row[];
        s.audit({ action: `${def.entityType}.create`, category: "inventory", entity_type: def.entityType, entity_id: row!.id, diff: diff(undefined, row!) });
        emitAll(s, generic, "create", row!.id);
        return one(s.tx, row!);
      });
    },

    async update({ ctx, id, input, ifMatch }: { ctx: VerbContext; id: number; input: Record<string, unknown>; ifMatch?: number | undefined }): Promise<Versioned<Api>> {
      requireScope(ctx, scopes.write);
      return runInTransaction(ctx, {}, async (s) => {
        const before = await loadRow(s.tx, generic, id, true);
        checkVersion(generic, before, ifMatch);
        const values = def.toValues ? await def.toValues(s, input, before) : input;
        await syncTags(s, values);
        const set: Record<string, unknown> = { ...values, updated_at: s.now };
        if (def.columns.version) set.version = sql`${def.columns.version} + 1`;
        const [after] = (await s.tx.update(def.table).set(set as never).where(eq(def.columns.id, id)).returning()) as Row[];
        const d = diff(before, after!);
        if (Object.keys(d.after).length > 0) {
          s.audit({ action: `${def.entityType}.update`, category: "inventory", entity_type: def.entityType, entity_id: id, diff: d });
          emitAll(s, generic, "update", id);
        }
        return one(s.tx, after!);
      });
    },

    async remove({ ctx, id, ifMatch }: { ctx: VerbContext; id: number; ifMatch?: number | undefined }): Promise<void> {
      requireScope(ctx, scopes.delete);
      await runInTransaction(ctx, {}, async (s) => {
        const row = await loadRow(s.tx, generic, id, true);
        checkVersion(generic, row, ifMatch);
        await def.beforeDelete?.(s, row);
        await s.tx.delete(def.table).where(eq(def.columns.id, id));
        const forgotten = await forgetReferences(s, def.entityType, id);
        s.audit({ action: `${def.entityType}.delete`, category: "inventory", entity_type: def.entityType, entity_id: id, diff: { before: row, references_removed: forgotten } });
        emitAll(s, generic, "delete", id);
      });
    },
  };
}

/** A 409 naming what still points at a row, the way every restricting delete answers. */
export function dependentsConflict(label: string, id: number, dependents: { type: string; id: number; name: string }[]): ApiError {
  const names = dependents.slice(0, 10).map((d) => `${d.type} ${d.id} (${d.name})`).join(", ");
  const more = dependents.length > 10 ? ` and ${dependents.length - 10} more` : "";
  return ApiError.conflict(`${label} ${id} cannot be deleted while these depend on it: ${names}${more}.`, { dependents });
}
