// Runs one list page: a filtered, searched, stably sorted page plus its total: two statements whatever
// the page size (no per-row queries; enrichment of a page is one more query at most). Or the whole list
// streamed, in the same order, through a cursor (streamRows, docs/adr/0503).
import { and, Column, is, type AnyColumn, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../db/database.ts";
import { selectAllFrom, tableRows } from "../../db/table-rows.ts";
import type { ListParams } from "../../schemas/list-query.ts";

export interface ListSpec {
  table: PgTable;
  id: AnyColumn;
  /** API sort key -> column. */
  sortable: Record<string, AnyColumn | SQL>;
  /** Columns `q` searches (case-insensitive substring; LIKE wildcards in q are literal). */
  search: (AnyColumn | SQL)[];
}

export interface ListPage<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  sort: string;
  direction: "asc" | "desc";
}

export function escapeLike(q: string): string {
  return q.replace(/[\\%_]/g, (m) => `\\${m}`);
}

export function searchCondition(columns: (AnyColumn | SQL)[], q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q.toLowerCase())}%`;
  const parts = columns.map((c) => sql`lower(${c}) like ${pattern} escape '\\'`);
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** A list's where and order clauses: its filters and search, then its sort with the id as the tie-break. */
function listClauses(spec: ListSpec, params: ListParams, where: (SQL | undefined)[]): { whereClause: SQL; orderBy: SQL } {
  const condition = and(...where, searchCondition(spec.search, params.q));
  const sortColumn = spec.sortable[params.sort] ?? spec.id;
  // "nulls last" only where nulls can occur: on a NOT NULL column it would stop a descending list
  // from walking its index backwards.
  const nullable = !(is(sortColumn, Column) && sortColumn.notNull);
  const dir = params.direction === "desc" ? sql`desc` : sql`asc`;
  const order = nullable ? sql`${sortColumn} ${dir} nulls last` : sql`${sortColumn} ${dir}`;
  const tieBreak = params.direction === "desc" ? sql`${spec.id} desc` : sql`${spec.id} asc`;
  return { whereClause: condition ? sql` where ${condition}` : sql``, orderBy: sql` order by ${order}, ${tieBreak}` };
}

/**
 * `present` turns the page's rows into their API shape; it runs as soon as the rows arrive, while the
 * total is still being counted.
 */
export async function listPage<Row, Item = Row>(
  db: Db,
  spec: ListSpec,
  params: ListParams,
  where: (SQL | undefined)[] = [],
  present: (rows: Row[]) => Item[] | Promise<Item[]> = (rows) => rows as unknown as Item[],
): Promise<ListPage<Item>> {
  const { whereClause, orderBy } = listClauses(spec, params, where);
  const [items, [totalRow]] = await Promise.all([
    tableRows<Row>(
      db,
      spec.table,
      sql`${selectAllFrom(spec.table)}${whereClause}${orderBy} limit ${params.limit} offset ${params.offset}`,
    ).then(present),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${spec.table}${whereClause}`),
  ]);
  return {
    items,
    total: totalRow?.n ?? 0,
    limit: params.limit,
    offset: params.offset,
    sort: params.sort,
    direction: params.direction,
  };
}

/**
 * Rows a streamed list reads and presents at a time (docs/adr/0503): a small first chunk, so the first
 * line leaves soon, then large ones, so a long list is few round trips.
 */
export const STREAM_FIRST_CHUNK = 100;
export const STREAM_CHUNK = 1000;

/**
 * Every row of a list (its filters, search and sort, without limit and offset), handed to `write` a
 * chunk at a time: one statement behind a cursor, so the sort runs once and only a chunk is in memory.
 * Runs in the caller's transaction (a cursor lives in one; a snapshot read keeps the chunks' enrichment
 * queries consistent with the rows). Awaiting `write` is the backpressure. Answers how many rows it wrote.
 */
export async function streamRows<Row, Item = Row>(
  db: Db,
  spec: ListSpec,
  params: Omit<ListParams, "limit" | "offset">,
  where: (SQL | undefined)[],
  present: (rows: Row[]) => Item[] | Promise<Item[]>,
  write: (items: Item[]) => Promise<void>,
  chunk = STREAM_CHUNK,
): Promise<number> {
  const { whereClause, orderBy } = listClauses(spec, { ...params, limit: 0, offset: 0 }, where);
  await db.execute(sql`declare list_rows no scroll cursor for ${selectAllFrom(spec.table)}${whereClause}${orderBy}`);
  const fetch = (n: number) => sql.raw(`fetch forward ${Math.max(1, Math.trunc(n))} from list_rows`);
  let count = 0;
  for (let size = Math.min(STREAM_FIRST_CHUNK, chunk); ; size = chunk) {
    const rows = await tableRows<Row>(db, spec.table, fetch(size));
    if (rows.length > 0) await write(await present(rows));
    count += rows.length;
    if (rows.length < size) break;
  }
  await db.execute(sql`close list_rows`);
  return count;
}
