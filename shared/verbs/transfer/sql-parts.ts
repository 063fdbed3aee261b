// SQL fragments the export and import build from a kind's column names. The names come from our own
// drizzle tables (kinds.ts), never from a request, so quoting them as identifiers is enough.
import { type SQL, sql } from "drizzle-orm";

export const ident = (name: string): SQL => sql.raw(`"${name.replace(/"/g, '""')}"`);

export const qualified = (alias: string, name: string): SQL => sql.raw(`${alias}."${name.replace(/"/g, '""')}"`);

export const list = (parts: SQL[]): SQL => sql.join(parts, sql`, `);

/** `json_build_object('a', x.a, ...)` over `columns` (key order kept, for the export's text). */
export const jsonObject = (alias: string, columns: string[]): SQL =>
  sql`json_build_object(${list(columns.map((c) => sql`${sql.raw(`'${c}'`)}, ${qualified(alias, c)}`))})`;

/** The same as jsonb, which compares by value (timestamps as instants, numbers as numbers). */
export const jsonbObject = (alias: string, columns: string[]): SQL =>
  columns.length === 0
    ? sql`'{}'::jsonb`
    : sql`jsonb_build_object(${list(columns.map((c) => sql`${sql.raw(`'${c}'`)}, ${qualified(alias, c)}`))})`;

/** `(a.k1, a.k2)` for a keyset comparison or a join on the key. */
export const tuple = (alias: string, columns: string[]): SQL => sql`(${list(columns.map((c) => qualified(alias, c)))})`;

export const keyJoin = (left: string, right: string, columns: string[]): SQL =>
  sql.join(
    columns.map((c) => sql`${qualified(left, c)} = ${qualified(right, c)}`),
    sql` and `,
  );
