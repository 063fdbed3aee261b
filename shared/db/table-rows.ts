// Whole rows of one table, decoded column by column. drizzle's general result mapping re-inspects
// every field of every row (which kind of selection it came from, which path to write it to), about a
// tenth of a millisecond per 100-row page; a table's own columns need only their decoders, looked up once.
// Likewise the select list ("select <every column> from <table>") is rendered once per table: drizzle
// would walk it again for every page.
import { Column, getTableColumns, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable, QueryBuilder } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "./database.ts";

interface Plan {
  columns: { key: string; name: string; column: Column }[];
  /**
   * When every property is named as its column, the driver's row objects are decoded where they are,
   * and only the columns whose type has a decoder of its own (timestamps, arrays, numbers sent as text)
   * are visited; text columns pass as the driver gave them.
   */
  inPlace: { name: string; column: Column }[] | null;
  selectAll: SQL;
}

const plainDecoder = Column.prototype.mapFromDriverValue;
const plans = new WeakMap<PgTable, Plan>();

function planOf(table: PgTable): Plan {
  let plan = plans.get(table);
  if (!plan) {
    const text = new PgDialect().sqlToQuery(new QueryBuilder().select().from(table).getSQL()).sql;
    const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name, column }));
    const inPlace = columns.every((c) => c.key === c.name) ? columns.filter((c) => c.column.mapFromDriverValue !== plainDecoder) : null;
    plan = { columns, inPlace, selectAll: sql.raw(text) };
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
  if (inPlace) {
    for (const r of raw)
      for (const { name, column } of inPlace) {
        const v = r[name];
        if (v === null || v === undefined) continue;
        const decoded = column.mapFromDriverValue(v);
        if (decoded !== v) r[name] = decoded;
      }
    return raw as Row[];
  }
  return raw.map((r) => {
    const out: Record<string, unknown> = {};
    for (const { key, name, column } of columns) {
      const v = r[name];
      out[key] = v === null || v === undefined ? null : column.mapFromDriverValue(v);
    }
    return out as Row;
  });
}
