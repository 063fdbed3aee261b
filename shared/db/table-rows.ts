// Whole rows of one table, decoded in the driver's own row objects. drizzle's general result mapping
// re-inspects every field of every row (which kind of selection it came from, which path to write it
// to), about a tenth of a millisecond per 100-row page; a table's own columns need only their decoders,
// looked up once.
// Likewise the select list ("select <every column> from <table>") is rendered once per table: drizzle
// would walk it again for every page.
import { Column, getTableColumns, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable, QueryBuilder } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "./database.ts";

interface Plan {
  /**
   * The columns a driver's row needs visiting, where it is: those whose type has a decoder of its own
   * (timestamps, arrays, numbers sent as text) and any whose property is named unlike the column. Text
   * columns named as their property pass as the driver gave them.
   */
  visit: { key: string; name: string; column: Column }[];
  selectAll: SQL;
}

const plainDecoder = Column.prototype.mapFromDriverValue;
const plans = new WeakMap<PgTable, Plan>();

function planOf(table: PgTable): Plan {
  let plan = plans.get(table);
  if (!plan) {
    const text = new PgDialect().sqlToQuery(new QueryBuilder().select().from(table).getSQL()).sql;
    const visit = Object.entries(getTableColumns(table))
      .map(([key, column]) => ({ key, name: column.name, column }))
      .filter((c) => c.key !== c.name || c.column.mapFromDriverValue !== plainDecoder);
    plan = { visit, selectAll: sql.raw(text) };
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
  const { visit } = planOf(table);
  const rows = await queryRows(db, query);
  for (const r of rows)
    for (const { key, name, column } of visit) {
      const v = r[name];
      const decoded = v === null || v === undefined ? null : column.mapFromDriverValue(v);
      if (key !== name) {
        delete r[name];
        r[key] = decoded;
      } else if (decoded !== v) r[key] = decoded;
    }
  return rows as Row[];
}
