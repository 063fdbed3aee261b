// The answer of a delete that something still points at.
import type { SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";

/** A 409 naming what still points at a row, the way every restricting delete answers. */
export function dependentsConflict(label: string, id: number, dependents: { type: string; id: number; name: string }[]): ApiError {
  const names = dependents
    .slice(0, 10)
    .map((d) => `${d.type} ${d.id} (${d.name})`)
    .join(", ");
  const more = dependents.length > 10 ? ` and ${dependents.length - 10} more` : "";
  return ApiError.conflict(`${label} ${id} cannot be deleted while these depend on it: ${names}${more}.`, { dependents });
}

/** The rows of one kind that point at a row (`where`), as dependents of `type`. */
export interface Dependents {
  type: string;
  table: PgTable;
  id: PgColumn;
  name: PgColumn;
  where: SQL | undefined;
}

/** Refuses the delete of `label` `id` (409 naming them) while rows of `of` point at it. */
export async function refuseWhileDependents(db: Db, label: string, id: number, of: Dependents): Promise<void> {
  const rows = (await db.select({ id: of.id, name: of.name }).from(of.table).where(of.where)) as { id: number; name: string }[];
  if (rows.length > 0)
    throw dependentsConflict(
      label,
      id,
      rows.map((r) => ({ type: of.type, ...r })),
    );
}
