// Helpers every resource's `present` uses: ISO timestamps, and one lookup of related names per page.
import { inArray } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import { isoTimestamp } from "../../domain/iso-timestamp.ts";

export function iso(d: unknown): string | null {
  return d instanceof Date ? isoTimestamp(d) : d == null ? null : String(d);
}

/** id -> name for the ids a page refers to, in one query. */
export async function namesById(
  db: Db,
  table: PgTable,
  id: PgColumn,
  name: PgColumn,
  ids: (number | null | undefined)[],
): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((x): x is number => typeof x === "number"))];
  if (wanted.length === 0) return new Map();
  const rows = (await db.select({ id, name }).from(table).where(inArray(id, wanted))) as { id: number; name: string }[];
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The row as it is, with ISO timestamps (for resources whose every column is part of the API shape). */
export function withIsoTimestamps<R extends { created_at: Date; updated_at: Date }>(
  r: R,
): Omit<R, "created_at" | "updated_at"> & { created_at: string; updated_at: string } {
  return { ...r, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! };
}
