// POST /admin/clear-lab (CLEAR_LAB, verified backup): every inventory entity goes, with the monitors and
// the telemetry about them and every row that only points at one (attachments, pins, discovery links);
// documents, users, settings, audit, agents and integrations stay. The same wipe, with the documents
// and tags too, clears the way for an import with wipe_before_import (RESTORE_WITH_WIPE).
import { sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { queryRows } from "../../db/database.ts";
import type { LabClearedAnswer } from "../../schemas/transfer.ts";
import { requireVerifiedBackup } from "../backups/verified-backup.ts";
import { defineVerb } from "../verb.ts";
import { KINDS } from "./kinds.ts";
import { ADMIN_SCOPE, INVENTORY_IMPORT_LOCK } from "./scope.ts";
import { ident } from "./sql-parts.ts";

export const CLEAR_LAB = { action: "CLEAR_LAB", requiresBackup: true } as const;

/** Rows about inventory entities that no foreign key removes with them (they name entities by type and id). */
const ENTITY_SIDE_TABLES = [
  "monitors",
  "maintenance_windows",
  "status_history",
  "resource_recommendations",
  "asset_identities",
  "map_entities",
  "map_pins",
  "external_refs",
  "doc_entities",
];

/** The inventory tables in the order they can be emptied (children first). */
const inventoryTables = (withDocs: boolean) =>
  [...KINDS]
    .reverse()
    .map((k) => k.name)
    .filter((name) => withDocs || (name !== "docs" && name !== "doc_entities"));

/**
 * Deletes the inventory (and, `withDocs`, the documents) inside the caller's transaction and answers
 * how many rows each table lost. Foreign keys take the rest (live metrics, forecasts, members).
 */
export async function wipeInventory(tx: Db, withDocs: boolean): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [...new Set([...ENTITY_SIDE_TABLES, ...inventoryTables(withDocs)])]) {
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`with d as (delete from ${ident(table)} returning 1) select count(*)::int as n from d`,
    );
    counts[table] = row?.n ?? 0;
  }
  return counts;
}

export const clearLab = defineVerb<{ backupsAvailable: boolean }, LabClearedAnswer>(
  { scope: ADMIN_SCOPE },
  async (s, { backupsAvailable }) => {
    const backup = await requireVerifiedBackup(s.tx, s.now, CLEAR_LAB, backupsAvailable);
    await s.tx.execute(sql`select pg_advisory_xact_lock(${INVENTORY_IMPORT_LOCK})`);
    const counts = await wipeInventory(s.tx, false);
    s.audit({
      action: "clear_lab",
      category: "inventory",
      level: "warning",
      entity_type: "inventory",
      diff: { deleted: counts, backup: backup?.filename ?? null },
    });
    s.emit("inventory", { action: "cleared" });
    return { cleared: true, ...counts };
  },
);
