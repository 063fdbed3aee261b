// List filter conditions; an absent filter adds nothing.
import { type AnyColumn, eq, sql, type SQL } from "drizzle-orm";

export function eqFilter(column: AnyColumn, value: string | number | undefined): SQL | undefined {
  return value === undefined ? undefined : eq(column, value);
}

/** Rows carrying this tag (array containment; uses the GIN index on tags). */
export function tagFilter(column: AnyColumn, tag: string | undefined): SQL | undefined {
  return tag === undefined ? undefined : sql`${column} @> array[${tag}]::text[]`;
}
