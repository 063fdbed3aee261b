// The resource engine: a resource describes itself once (a ResourceDef over its table) and the engine
// serves it the same way as every other: get, list, create, update and delete verbs with scopes,
// optimistic concurrency on `version`, tag sync, audit diffs and events (resource-verbs.ts). Inventory,
// documents, maps, topologies and the knowledge base are built on it; what differs stays in the def's
// hooks, or in a sub-verb of the resource's own folder.
import type { AnyColumn, Column, GetColumnData, InferInsertModel, InferSelectModel, SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { EventChannel, VerbScope } from "../verb.ts";
import type { ListSpec } from "./list.ts";

/** A stored row of the table, as drizzle reads it. */
export type RowOf<T extends PgTable> = InferSelectModel<T>;
/** Column values a write gives: any subset of the table's insertable columns. */
export type ValuesOf<T extends PgTable> = Partial<InferInsertModel<T>>;
/** What a row is addressed by: the id column's value (a number, or a string key such as an OUI prefix). */
export type KeyOf<I extends Column> = GetColumnData<I> & (number | string);

export interface ResourceDef<T extends PgTable, Api, Q extends ListParams = ListParams, I extends AnyColumn = AnyColumn> {
  /** For messages: "Hardware node". */
  label: string;
  /** For scopes, audit and events: "hardware" (scopes read:hardware, write:hardware, delete:hardware). */
  entityType: string;
  /** The audit actions' prefix when it differs from entityType ("kb.oui" -> kb.oui.create). */
  auditPrefix?: string;
  /** The audit entries' category (default "inventory"). */
  auditCategory?: string;
  table: T;
  columns: { id: I; version?: AnyColumn; tags?: AnyColumn };
  /** The scope names' resource part when it differs from entityType (e.g. "compute" for compute units). */
  scopeResource?: string;
  /** One scope for reads and writes alike, outside the read/write/delete vocabulary (admin:notifications). */
  scope?: string;
  /** Where changes are announced (default ["inventory"]; [] announces nothing). */
  channels?: EventChannel[];
  list: Omit<ListSpec, "table" | "id">;
  /** The list query's filters as conditions (an absent filter adds nothing). */
  filters?(query: Q): (SQL | undefined)[];
  /** Validated input -> column values: derive fields, check references with clear errors. */
  toValues?(s: VerbScope, input: ValuesOf<T>, existing: RowOf<T> | undefined): Promise<ValuesOf<T>>;
  /**
   * For a batched write of many rows (write-rows.ts): whether this row's rules read rows of the kind that
   * the same batch may write (a node placed in a rack checks the rack's other nodes), so it must be
   * checked and written after the rows before it, on its own. Default: no.
   */
  writesAlone?(input: ValuesOf<T>, existing: RowOf<T> | undefined): boolean;
  /** Refuses (409 listing dependents) or unlinks before the row goes. */
  beforeDelete?(s: VerbScope, row: RowOf<T>): Promise<void>;
  /**
   * The version If-Match is checked against when it is not the `version` column: a monitor's is its
   * updated_at in epoch milliseconds (docs/adr/0105). Without either, If-Match is not checked.
   */
  versionOf?(row: RowOf<T>): number;
  /** What the audit diff shows of a row (default: every column): secrets and bookkeeping left out. */
  auditView?(row: RowOf<T>): Record<string, unknown>;
  /** Rows -> API shapes; at most one extra query for the whole page. */
  present(db: Db, rows: RowOf<T>[]): Promise<Api[]>;
}

/** Declares a resource, inferring its table, API shape, list query and key from what it says. */
export function defineResource<T extends PgTable, Api, Q extends ListParams = ListParams, I extends AnyColumn = AnyColumn>(
  def: ResourceDef<T, Api, Q, I>,
): ResourceDef<T, Api, Q, I> {
  return def;
}

export function scopesOf(def: { scopeResource?: string; scope?: string; entityType: string }) {
  if (def.scope) return { read: def.scope, write: def.scope, delete: def.scope };
  const r = def.scopeResource ?? def.entityType;
  return { read: `read:${r}`, write: `write:${r}`, delete: `delete:${r}` };
}
