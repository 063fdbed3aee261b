// The bulk form of POST /kb/hostname and /kb/oui: every entry inserted or, where its key exists,
// replacing the stored one (fields it leaves out become null), in one statement in one transaction; the
// answer counts which was which.
import { getTableColumns, type InferInsertModel, sql } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { refuseRepeats } from "../docs/repeats.ts";
import { defineVerb } from "../verb.ts";

export interface BulkTarget<T extends PgTable> {
  table: T;
  /** The unique column entries are matched by. */
  key: PgColumn;
  keyName: keyof InferInsertModel<T> & string;
  /** For the audit entry: "kb.hostname". */
  action: string;
}

/** The bulk import verb of one table of the knowledge base (write:kb, like a single entry). */
export function bulkImport<T extends PgTable>(target: BulkTarget<T>) {
  // An imported entry replaces the stored one whole: every column but the key, id and timestamps.
  const columns = Object.values(getTableColumns(target.table) as Record<string, PgColumn>);
  const replaced = columns.filter((c) => ![target.key.name, "id", "created_at", "updated_at"].includes(c.name));
  // Built from the table's own columns, so every key is one of its columns.
  const excluded = Object.fromEntries(replaced.map((c) => [c.name, sql.raw(`excluded.${c.name}`)])) as PgUpdateSetSource<T>;
  const entity = target.action.replace(".", "_");

  return defineVerb(
    {
      scope: "write:kb",
      prepare: async (_ctx, entries: InferInsertModel<T>[]) =>
        refuseRepeats(
          entries,
          (e) => String(e[target.keyName]),
          (i) => ["entries", i, target.keyName],
          "each key once per import",
        ),
    },
    async (s, entries) => {
      const rows = (await s.tx
        .insert(target.table)
        .values(entries)
        .onConflictDoUpdate({ target: target.key, set: { ...excluded, updated_at: s.now } })
        // xmax is 0 only on a row this statement inserted (an updated row carries the updating transaction's id).
        .returning({ key: target.key, inserted: sql<boolean>`(xmax = 0)` })) as { key: string; inserted: boolean }[];
      const created = rows.filter((r) => r.inserted).map((r) => r.key);
      const updated = rows.filter((r) => !r.inserted).map((r) => r.key);
      s.audit({
        action: `${target.action}.import`,
        category: "inventory",
        entity_type: entity,
        entity_id: null,
        diff: { created, updated },
      });
      s.emit("inventory", { entity, action: "import", created: created.length, updated: updated.length });
      return { created: created.length, updated: updated.length };
    },
  );
}
