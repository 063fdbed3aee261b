// Many rows written with one parameter: the rows as a JSON array that PostgreSQL reads with
// jsonb_populate_recordset into the table's own row type, so a thousand rows of thirty columns are one
// bound value rather than thirty thousand (the driver's per-parameter cost dominated a multi-row VALUES
// insert). The engine's batched write (shared/verbs/resources/write-rows.ts) and the audit chain's bulk
// append use it. Column names come from our drizzle tables, never from a request.
import { getTableName, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "./database.ts";

const ident = (name: string): SQL => sql.raw(`"${name.replace(/"/g, '""')}"`);
const list = (names: string[], alias?: string): SQL =>
  sql.join(
    names.map((n) => (alias ? sql`${sql.raw(alias)}.${ident(n)}` : ident(n))),
    sql`, `,
  );

/** The table's row type and the rows as its records, numbered in their order (d.ordinality). */
const records = (table: PgTable, rows: Record<string, unknown>[]): SQL =>
  sql`jsonb_populate_recordset(null::${ident(getTableName(table))}, ${JSON.stringify(rows)}::jsonb) with ordinality as d`;

/**
 * Inserts `rows` (SQL column name -> value; only `columns` are written, the others take their
 * defaults) in their order, answering the new ids in that order (a serial follows the insert order).
 */
export async function insertJsonRows(db: Db, table: PgTable, columns: string[], rows: Record<string, unknown>[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await queryRows<{ id: number | string }>(
    db,
    sql`insert into ${ident(getTableName(table))} (${list(columns)})
        select ${list(columns, "d")} from ${records(table, rows)} order by d.ordinality returning id`,
  );
  return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Sets `columns` (and `extra`, e.g. a version bump) on each row `rows` names by `id`; answers the ids updated. */
export async function updateJsonRows(
  db: Db,
  table: PgTable,
  columns: string[],
  rows: Record<string, unknown>[],
  extra: SQL,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const name = getTableName(table);
  const set = sql.join(
    columns.map((c) => sql`${ident(c)} = d.${ident(c)}`),
    sql`, `,
  );
  const updated = await queryRows<{ id: number | string }>(
    db,
    sql`update ${ident(name)} as t set ${set}${columns.length > 0 ? sql`, ` : sql``}${extra}
        from ${records(table, rows)} where t.id = d.id returning t.id`,
  );
  return updated.map((r) => Number(r.id));
}
