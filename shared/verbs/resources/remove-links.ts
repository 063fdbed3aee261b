// Link rows (memberships, service links) that go with the row they hang off. The foreign keys would
// cascade anyway; deleting them here first puts what went into the audit trail, so no unlink is silent.
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { VerbScope } from "../verb.ts";

export interface LinkTable {
  /** The key the removed rows are listed under in the audit diff ("network_members"). */
  name: string;
  table: PgTable;
  /** The column that points at the row being deleted. */
  column: PgColumn;
}

export async function removeLinks(s: VerbScope, owner: { entityType: string; id: number }, links: LinkTable[]): Promise<void> {
  const removed: Record<string, unknown[]> = {};
  for (const link of links) {
    const rows = await s.tx.delete(link.table).where(eq(link.column, owner.id)).returning();
    if (rows.length > 0) removed[link.name] = rows;
  }
  if (Object.keys(removed).length === 0) return;
  s.audit({
    action: `${owner.entityType}.unlink`,
    category: "inventory",
    entity_type: owner.entityType,
    entity_id: owner.id,
    diff: { before: removed },
  });
}
