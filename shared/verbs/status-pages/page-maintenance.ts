// The maintenance a status page shows: each enabled window covering one of its monitors that is open now
// or begins within a week, with its times and the public names of the items it covers. Never the
// window's own name or description: those are written for operators, not for the public.
import type { Db } from "../../db/database.ts";
import { maintenanceWindows } from "../../db/schema/index.ts";
import { openSpan } from "../../domain/monitors/maintenance-window.ts";
import { nextStart } from "../monitors/maintenance/timing.ts";
import { monitorsCoveredBy } from "../monitors/run/maintenance-cover.ts";

const WEEK = 7 * 24 * 3_600_000;

export interface PageMaintenance {
  state: "in_progress" | "scheduled";
  starts_at: string | null;
  ends_at: string | null;
  /** Item ids (the caller turns them into public names). */
  itemIds: number[];
}

export async function pageMaintenance(db: Db, monitorsByItem: Map<number, number[]>, now: Date): Promise<PageMaintenance[]> {
  const allMonitors = [...new Set([...monitorsByItem.values()].flat())];
  if (allMonitors.length === 0) return [];
  const out: PageMaintenance[] = [];
  for (const w of await db.select().from(maintenanceWindows)) {
    const span = openSpan(w, now);
    const open = span !== null;
    const next = open ? null : nextStart(w, now);
    if (!open && (!next || next.getTime() - now.getTime() > WEEK)) continue;
    const covered = await monitorsCoveredBy(db, w, allMonitors);
    const itemIds = [...monitorsByItem].filter(([, ms]) => ms.some((m) => covered.has(m))).map(([id]) => id);
    if (itemIds.length === 0) continue;
    const [starts, ends] = span ?? [
      next,
      w.kind === "one_off" ? w.ends_at : new Date(next!.getTime() + (w.duration_minutes ?? 0) * 60_000),
    ];
    out.push({
      state: open ? "in_progress" : "scheduled",
      starts_at: starts?.toISOString() ?? null,
      ends_at: ends?.toISOString() ?? null,
      itemIds,
    });
  }
  return out.sort((a, b) => (a.starts_at ?? "").localeCompare(b.starts_at ?? ""));
}
