// Whole rows of one table, decoded column by column. drizzle's general result mapping re-inspects
// every field of every row (which kind of selection it came from, which path to write it to), about a
// tenth of a millisecond per 100-row page; a table's own columns need only their decoders, looked up once.
// Likewise the select list ("select <every column> from <table>") is rendered once per table: drizzle
// would walk it again for every page.
import { type Column, getTableColumns, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable, QueryBuilder } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "./database.ts";

interface Plan {
  columns: { key: string; name: string; column: Column }[];
  /** Every property is named as its column, so the driver's row objects are decoded where they are. */
  inPlace: boolean;
  selectAll: SQL;
}
const plans = new WeakMap<PgTable, Plan>();

function planOf(table: PgTable): Plan {
  let plan = plans.get(table);
  if (!plan) {
    const text = new PgDialect().sqlToQuery(new QueryBuilder().select().from(table).getSQL()).sql;
    const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name, column }));
    plan = { columns, inPlace: columns.every((c) => c.key === c.name), selectAll: sql.raw(text) };
    plans.set(table, plan);
  }
  return plan;
}

/** `select <every column of table> from <table>`, to be followed by where/order/limit clauses. */
export function selectAllFrom(table: PgTable): SQL {
  return planOf(table).selectAll;
}

/** Runs `query` (a select of `table`'s own columns, as selectAllFrom) and returns rows shaped as drizzle's select() would. */
export async function tableRows<Row>(db: Db, table: PgTable, query: SQL): Promise<Row[]> {
  const { columns, inPlace } = planOf(table);
  const raw = await queryRows(db, query);
  const rows = new Array<Row>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    const out: Record<string, unknown> = inPlace ? r : {};
    for (const { key, name, column } of columns) {
      const v = r[name];
      out[key] = v === null || v === undefined ? null : column.mapFromDriverValue(v);
    }
    rows[i] = out as Row;
  }
  return rows;
}
