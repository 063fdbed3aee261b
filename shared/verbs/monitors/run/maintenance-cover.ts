// Which of some monitors an open maintenance window covers now: listed by id, or by their target
// (target_type/target_id), or through the target's site or tag. Read inside the result-recording
// transaction, so the status a result sets and the window it obeys are of the same instant.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { maintenanceWindows } from "../../../db/schema/index.ts";
import { windowOpen } from "../../../domain/monitors/maintenance-window.ts";
import { hardwareIdOf } from "../target-place.ts";

type WindowRow = typeof maintenanceWindows.$inferSelect;

export async function monitorsInMaintenance(tx: Db, monitorIds: readonly number[], now: Date): Promise<Set<number>> {
  if (monitorIds.length === 0) return new Set();
  const windows = (await tx.select().from(maintenanceWindows)).filter((w) => windowOpen(w, now));
  if (windows.length === 0) return new Set();
  const covered = new Set<number>();
  for (const w of windows) for (const id of await monitorsCoveredBy(tx, w, monitorIds)) covered.add(id);
  return covered;
}

/** Which of `monitorIds` one window covers (open or not): listed, by target, or by the target's site or tag. */
export async function monitorsCoveredBy(tx: Db, w: WindowRow, monitorIds: readonly number[]): Promise<Set<number>> {
  const covered = new Set<number>();
  const ids = `{${monitorIds.join(",")}}`;
  for (const id of w.monitor_ids) if (monitorIds.includes(id)) covered.add(id);
  if (w.target_type && w.target_id !== null) {
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`select id from monitors where id = any(${ids}::int[]) and target_type = ${w.target_type} and target_id = ${w.target_id}`,
    );
    for (const r of rows) covered.add(r.id);
  }
  if (w.site_id !== null || w.tag) {
    for (const id of await bySiteOrTag(tx, ids, w.site_id, w.tag)) covered.add(id);
  }
  return covered;
}

/** Monitors whose hardware target (or the hardware a compute unit or service runs on) is in the site or carries the tag. */
async function bySiteOrTag(tx: Db, ids: string, siteId: number | null, tag: string | null): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select m.id from monitors m join hardware h on h.id = ${hardwareIdOf(sql`m.target_type`, sql`m.target_id`)}
    where m.id = any(${ids}::int[])
      and (${siteId}::int is null or h.site_id = ${siteId}) and (${tag}::text is null or ${tag} = any(h.tags))`,
  );
  return rows.map((r) => r.id);
}
