// Taking a custom field's values off objects: when its definition is deleted, or a kind is taken away
// from it. Each object that had a value gets a new version (its read shape changed), one statement a kind.
import { getTableColumns, sql } from "drizzle-orm";
import type { AnyColumn } from "drizzle-orm";
import { OBJECT_KINDS, type ObjectType } from "../inventory/object-kinds.ts";
import type { VerbScope } from "../verb.ts";

/** How many objects of these kinds hold a value of the field. */
export async function countValues(s: Pick<VerbScope, "tx">, name: string, kinds: readonly ObjectType[]): Promise<number> {
  let n = 0;
  for (const kind of kinds) {
    const table = OBJECT_KINDS[kind].table;
    const column = (getTableColumns(table) as Record<string, AnyColumn>).custom_fields!;
    const [row] = await s.tx.select({ n: sql<number>`count(*)::int` }).from(table).where(sql`${column} ? ${name}`);
    n += row?.n ?? 0;
  }
  return n;
}

/** Removes the field's values from the objects of these kinds; answers how many objects changed. */
export async function stripValues(s: Pick<VerbScope, "tx">, name: string, kinds: readonly ObjectType[], now: Date): Promise<number> {
  let n = 0;
  for (const kind of kinds) {
    const table = OBJECT_KINDS[kind].table;
    const columns = getTableColumns(table) as Record<string, AnyColumn>;
    const column = columns.custom_fields!;
    const set: Record<string, unknown> = { custom_fields: sql`${column} - ${name}`, updated_at: now };
    if (columns.version) set.version = sql`${columns.version} + 1`;
    const changed = await s.tx.update(table).set(set).where(sql`${column} ? ${name}`).returning({ id: OBJECT_KINDS[kind].id });
    n += changed.length;
  }
  return n;
}
