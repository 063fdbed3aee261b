// POST /discovery/merges/{audit_id}/undo: reverses one merge from the undo its audit entry holds, in one
// transaction with its own audit entry. Refused with 409, changing nothing, when a row the merge touched
// moved on since (another version, a result reviewed again, a new node that now hosts something) or when
// the merge was undone already; 404 for an entry that is no merge.
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { queryRows } from "../../../db/database.ts";
import {
  auditLog,
  computeUnits,
  hardware,
  hardwareClusters,
  mapEntities,
  networkHardwareMembers,
  networks,
  scanResults,
  services,
  storage,
} from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineRead, defineVerb, type VerbScope } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { forgetReferences } from "../../resources/forget-references.ts";
import { announce } from "./merge-writes.ts";
import { MERGE_ENTITY, UNDO_ENTITY, type UndoLog, type VersionedTable } from "./undo-log.ts";

const TABLES: Record<VersionedTable, { table: PgTable; id: PgColumn; version: PgColumn; label: string }> = {
  hardware: { table: hardware, id: hardware.id, version: hardware.version, label: "Hardware node" },
  compute_units: { table: computeUnits, id: computeUnits.id, version: computeUnits.version, label: "Compute unit" },
  networks: { table: networks, id: networks.id, version: networks.version, label: "Network" },
  hardware_clusters: { table: hardwareClusters, id: hardwareClusters.id, version: hardwareClusters.version, label: "Hardware cluster" },
  services: { table: services, id: services.id, version: services.version, label: "Service" },
};
const ENTITY: Record<VersionedTable, string> = {
  hardware: "hardware",
  compute_units: "compute_unit",
  networks: "network",
  hardware_clusters: "cluster",
  services: "service",
};

const changed = (what: string) => ApiError.conflict(`The merge cannot be undone: ${what} changed since the merge.`);

/** Every touched row as the merge left it, or a 409 naming the first that moved on. Locks them. */
async function checkUnchanged(s: VerbScope, undo: UndoLog): Promise<void> {
  for (const name of Object.keys(TABLES) as VersionedTable[]) {
    const t = TABLES[name];
    const expected = new Map([...undo.created, ...undo.updated].filter((r) => r.table === name).map((r) => [r.id, r.version]));
    if (expected.size === 0) continue;
    const rows = (await s.tx
      .select({ id: t.id, version: t.version })
      .from(t.table)
      .where(inArray(t.id, [...expected.keys()]))
      .for("update")) as { id: number; version: number }[];
    const now = new Map(rows.map((r) => [r.id, r.version]));
    for (const [id, version] of expected) if (now.get(id) !== version) throw changed(`${t.label} ${id}`);
  }
  const createdHw = undo.created.filter((r) => r.table === "hardware").map((r) => r.id);
  if (createdHw.length > 0) {
    // Services the merge made itself go with it; anything else now on a new node keeps the node.
    const ownServices = undo.created.filter((r) => r.table === "services").map((r) => r.id);
    const notOwn = ownServices.length > 0 ? notInArray(services.id, ownServices) : undefined;
    for (const [table, column, label, except] of [
      [computeUnits, computeUnits.hardware_id, "compute unit", undefined],
      [services, services.hardware_id, "service", notOwn],
      [storage, storage.hardware_id, "storage", undefined],
    ] as const) {
      const [dep] = (await s.tx
        .select({ hw: column })
        .from(table)
        .where(and(inArray(column, createdHw), except))
        .limit(1)) as { hw: number }[];
      if (dep) throw changed(`Hardware node ${dep.hw} (it now has a ${label})`);
    }
  }
  const ids = undo.results.map((r) => r.id);
  if (ids.length > 0) {
    const rows = await s.tx
      .select({ id: scanResults.id, merge_status: scanResults.merge_status })
      .from(scanResults)
      .where(inArray(scanResults.id, ids))
      .for("update");
    const now = new Map(rows.map((r) => [r.id, r.merge_status]));
    for (const r of undo.results) if (now.has(r.id) && now.get(r.id) !== r.merge_status_after) throw changed(`Scan result ${r.id}`);
  }
}

async function restoreRows(s: VerbScope, undo: UndoLog): Promise<{ deleted: number; restored: number }> {
  for (const p of undo.placements ?? []) {
    await s.tx
      .delete(mapEntities)
      .where(and(eq(mapEntities.map_id, p.map_id), eq(mapEntities.entity_type, p.entity_type), eq(mapEntities.entity_id, p.entity_id)));
  }
  for (const l of undo.links) {
    await s.tx
      .delete(networkHardwareMembers)
      .where(and(eq(networkHardwareMembers.network_id, l.network_id), eq(networkHardwareMembers.hardware_id, l.hardware_id)));
  }
  for (const r of undo.updated) {
    const t = TABLES[r.table];
    await s.tx
      .update(t.table)
      .set({ ...r.before, version: sql`${t.version} + 1`, updated_at: s.now } as never)
      .where(eq(t.id, r.id));
    announce(s, r.table, "update", r.id);
  }
  // Nodes before networks: nothing the merge created refers to what it created after.
  const created = [...undo.created].reverse();
  for (const name of ["services", "hardware", "compute_units", "networks", "hardware_clusters"] as VersionedTable[]) {
    const ids = created.filter((r) => r.table === name).map((r) => r.id);
    if (ids.length === 0) continue;
    await s.tx.delete(TABLES[name].table).where(inArray(TABLES[name].id, ids));
    // What points at the deleted rows by (type, id) goes too, as when the inventory deletes them.
    for (const id of ids) await forgetReferences(s, ENTITY[name], id);
    for (const id of ids) announce(s, name, "delete", id);
  }
  if (undo.results.length > 0) {
    const rows = undo.results.map((r) => ({ ...r, reviewed_at: r.reviewed_at }));
    await s.tx.execute(sql`
      update scan_results r set merge_status = u.merge_status, reviewed_by = u.reviewed_by, reviewed_at = u.reviewed_at,
        matched_entity_type = u.matched_entity_type, matched_entity_id = u.matched_entity_id, merge_audit_id = null
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(id int, merge_status text, reviewed_by text, reviewed_at timestamptz,
        matched_entity_type text, matched_entity_id int)
      where r.id = u.id`);
  }
  return { deleted: undo.created.length, restored: undo.updated.length };
}

export const undoMerge = defineVerb({ scope: WRITE_DISCOVERY }, async (s, { audit_id }: { audit_id: number }) => {
  const [entry] = await s.tx
    .select({ id: auditLog.id, entity_id: auditLog.entity_id, diff: auditLog.diff })
    .from(auditLog)
    .where(and(eq(auditLog.id, audit_id), eq(auditLog.entity_type, MERGE_ENTITY)));
  if (!entry) throw new ApiError("RESOURCE_NOT_FOUND", `Merge ${audit_id} was not found.`);
  // One undo at a time per merge: a second waits here, then finds the first's entry.
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`discovery.merge.undo:${audit_id}`}))`);
  const [done] = await queryRows<{ id: number }>(
    s.tx,
    sql`select id::int as id from audit_log where entity_type = ${UNDO_ENTITY} and entity_id = ${String(audit_id)} limit 1`,
  );
  if (done) throw ApiError.conflict(`Merge ${audit_id} was already undone (audit entry ${done.id}).`);
  const undo = (entry.diff as { undo?: UndoLog } | null)?.undo;
  if (!undo) throw new ApiError("RESOURCE_NOT_FOUND", `Merge ${audit_id} was not found.`);
  await checkUnchanged(s, undo);
  const { deleted, restored } = await restoreRows(s, undo);
  s.audit({
    action: "discovery.merge.undo",
    category: "inventory",
    entity_type: UNDO_ENTITY,
    entity_id: audit_id,
    diff: { merge_id: entry.entity_id, undone: undo },
  });
  s.emit("discovery", { type: "merge_undone", audit_id, results: undo.results.length });
  return {
    audit_id,
    undone: true,
    undo_audit_id: null as number | null,
    results_reset: undo.results.length,
    rows_deleted: deleted,
    rows_restored: restored,
  };
});

/** The audit entry an undo recorded (known once it committed), for its answer. */
export const undoAuditId = defineRead({ scope: WRITE_DISCOVERY }, async (ctx, auditId: number): Promise<number | null> => {
  const [row] = await queryRows<{ id: number }>(
    ctx.db,
    sql`select id::int as id from audit_log where entity_type = ${UNDO_ENTITY} and entity_id = ${String(auditId)} limit 1`,
  );
  return row?.id ?? null;
});
