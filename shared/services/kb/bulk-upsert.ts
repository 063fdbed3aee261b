// The bulk form of POST /kb/hostname and /kb/oui: every entry inserted or, where its key exists,
// replacing the stored one (fields it leaves out become null), in one statement inside the verb's transaction; the answer counts which was which.
import { getTableColumns, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { refuseRepeats } from "../docs/repeats.ts";
import type { VerbScope } from "../verb.ts";

export interface BulkTarget {
  table: PgTable;
  /** The unique column entries are matched by. */
  key: PgColumn;
  keyName: string;
  /** For the audit entry: "kb.hostname". */
  action: string;
}

export async function bulkUpsert(s: VerbScope, target: BulkTarget, entries: Record<string, unknown>[]): Promise<{ created: number; updated: number }> {
  refuseRepeats(entries, (e) => String(e[target.keyName]), (i) => ["entries", i, target.keyName], "each key once per import");
  // An imported entry replaces the stored one whole: every column but the key, id and timestamps.
  const columns = Object.values(getTableColumns(target.table) as Record<string, PgColumn>);
  const replaced = columns.filter((c) => ![target.key.name, "id", "created_at", "updated_at"].includes(c.name));
  const set = Object.fromEntries(replaced.map((c) => [c.name, sql.raw(`excluded.${c.name}`)]));
  const rows = (await s.tx
    .insert(target.table)
    .values(entries as never)
    .onConflictDoUpdate({ target: target.key, set: { ...set, updated_at: s.now } as never })
    // xmax is 0 only on a row this statement inserted (an updated row carries the updating transaction's id).
    .returning({ key: target.key, inserted: sql<boolean>`(xmax = 0)` })) as { key: string; inserted: boolean }[];
  const created = rows.filter((r) => r.inserted).map((r) => r.key);
  const updated = rows.filter((r) => !r.inserted).map((r) => r.key);
  s.audit({ action: `${target.action}.import`, category: "inventory", entity_type: target.action.replace(".", "_"), entity_id: null, diff: { created, updated } });
  s.emit("inventory", { entity: target.action.replace(".", "_"), action: "import", created: created.length, updated: updated.length });
  return { created: created.length, updated: updated.length };
}
