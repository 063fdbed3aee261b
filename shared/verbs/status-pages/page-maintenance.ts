// The maintenance a status page shows: each enabled window covering one of its monitors that is open now
// or begins within a week, with its times and the public names of the items it covers. Never the
// window's own name or description: those are written for operators, not for the public.
import { Cron } from "croner";
import type { Db } from "../../db/database.ts";
import { maintenanceWindows } from "../../db/schema/index.ts";
import { windowOpen } from "../../domain/monitors/maintenance-window.ts";
import { nextStart } from "../monitors/maintenance/timing.ts";
import { monitorsCoveredBy } from "../monitors/run/maintenance-cover.ts";

const WEEK = 7 * 24 * 3_600_000;
type WindowRow = typeof maintenanceWindows.$inferSelect;

export interface PageMaintenance {
  state: "in_progress" | "scheduled";
  starts_at: string | null;
  ends_at: string | null;
  /** Item ids (the caller turns them into public names). */
  itemIds: number[];
}

/** The open occurrence's start and end (a recurring window's current run, or the one-off's bounds). */
function openSpan(w: WindowRow, now: Date): [Date | null, Date | null] {
  if (w.kind === "one_off") return [w.starts_at, w.ends_at];
  const start = new Cron(w.cron!, { timezone: w.timezone ?? "UTC", paused: true }).nextRun(
    new Date(now.getTime() - w.duration_minutes! * 60_000),
  );
  return [start, start ? new Date(start.getTime() + w.duration_minutes! * 60_000) : null];
}

export async function pageMaintenance(db: Db, monitorsByItem: Map<number, number[]>, now: Date): Promise<PageMaintenance[]> {
  const allMonitors = [...new Set([...monitorsByItem.values()].flat())];
  if (allMonitors.length === 0) return [];
  const out: PageMaintenance[] = [];
  for (const w of await db.select().from(maintenanceWindows)) {
    const open = windowOpen(w, now);
    const next = open ? null : nextStart(w, now);
    if (!open && (!next || next.getTime() - now.getTime() > WEEK)) continue;
    const covered = await monitorsCoveredBy(db, w, allMonitors);
    const itemIds = [...monitorsByItem].filter(([, ms]) => ms.some((m) => covered.has(m))).map(([id]) => id);
    if (itemIds.length === 0) continue;
    const [starts, ends] = open
      ? openSpan(w, now)
      : [next, w.kind === "one_off" ? w.ends_at : new Date(next!.getTime() + (w.duration_minutes ?? 0) * 60_000)];
    out.push({
      state: open ? "in_progress" : "scheduled",
      starts_at: starts?.toISOString() ?? null,
      ends_at: ends?.toISOString() ?? null,
      itemIds,
    });
  }
  return out.sort((a, b) => (a.starts_at ?? "").localeCompare(b.starts_at ?? ""));
}
