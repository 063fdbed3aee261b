// Reference and uniqueness checks that answer in sentences before a write reaches a constraint (the
// constraint mapping stays the safety net for races).
import { and, eq, ne, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";

/** A referenced row must exist: 422 naming `field` when it comes from the body, else 404. */
export async function requireRow(db: Db, table: PgTable, id: PgColumn, value: number, label: string, field?: string): Promise<void> {
  const [row] = await db.select({ id }).from(table).where(eq(id, value)).limit(1);
  if (row) return;
  if (field) throw ApiError.validation([{ loc: ["body", field], msg: `${label} ${value} was not found.`, type: "foreign_key" }]);
  throw ApiError.notFound(label, value);
}

/** An optional reference from a body: checked when given and not null. */
export async function requireOptionalRow(
  db: Db,
  table: PgTable,
  id: PgColumn,
  value: unknown,
  label: string,
  field: string,
): Promise<void> {
  if (typeof value === "number") await requireRow(db, table, id, value, label, field);
}

export interface UniqueCheck {
  table: PgTable;
  id: PgColumn;
  column: PgColumn;
  value: unknown;
  /** The row being changed (it may keep its own value). */
  exceptId?: number | undefined;
  /** Further columns of a composite key. */
  also?: SQL | undefined;
  field: string;
  /** "Site 4 already has this name" -> label "Site". */
  label: string;
}

/** 409 naming the row that already holds the value. */
export async function requireUnique(db: Db, c: UniqueCheck, describe = (id: number) => `${c.label} ${id}`): Promise<void> {
  const where = and(eq(c.column, c.value), c.also, c.exceptId === undefined ? undefined : ne(c.id, c.exceptId));
  const [row] = (await db.select({ id: c.id }).from(c.table).where(where).limit(1)) as { id: number }[];
  if (!row) return;
  const msg = `${describe(row.id)} already has ${c.field} ${JSON.stringify(c.value)}.`;
  throw ApiError.conflict(msg, { fields: { [c.field]: msg } });
}
