// CRUD of maintenance windows (/monitors/maintenance-windows, ours, beyond the catalogue). A window covers
// the monitors it lists, those of its target, and those whose target's hardware is at its site and/or
// carries its tag (at least one must be given); the runner (run/maintenance-cover.ts) puts covered
// monitors in `maintenance` while it is open and raises no alerts for them.
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { maintenanceWindows, monitors, sites } from "../../../db/schema/index.ts";
import { openSpan } from "../../../domain/monitors/maintenance-window.ts";
import { ApiError, type ValidationIssue } from "../../../errors.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import type { MaintenanceWindowInput, MaintenanceWindowShape, TargetType } from "../../../schemas/monitors.ts";
import { type ListPage, type ListSpec, listPage } from "../../resources/list.ts";
import { defineRead, defineVerb, type VerbScope } from "../../verb.ts";
import { wakeRunner } from "../notify.ts";
import { DELETE_MONITORS, READ_MONITORS, WRITE_MONITORS } from "../scopes.ts";
import { findTarget } from "../targets.ts";
import { checkTiming, nextStart } from "./timing.ts";

type WindowRow = typeof maintenanceWindows.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentWindow(w: WindowRow, now: Date): MaintenanceWindowShape {
  const open = openSpan(w, now);
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    enabled: w.enabled,
    kind: w.kind as "one_off" | "recurring",
    starts_at: iso(w.starts_at),
    ends_at: iso(w.ends_at),
    cron: w.cron,
    duration_minutes: w.duration_minutes,
    timezone: w.timezone,
    monitor_ids: w.monitor_ids,
    target_type: w.target_type,
    target_id: w.target_id,
    site_id: w.site_id,
    tag: w.tag,
    active: open !== null,
    current_ends_at: open ? open[1].toISOString() : null,
    next_starts_at: iso(nextStart(w, now)),
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

async function requireWindow(db: Db, id: number, forUpdate = false): Promise<WindowRow> {
  const q = db.select().from(maintenanceWindows).where(eq(maintenanceWindows.id, id));
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw ApiError.notFound("Maintenance window", id);
  return row;
}

/** A window's version is its updated_at in epoch ms (the ETag, functions/routes/updated-at-etag.ts): 412 when If-Match names another. */
function checkWindowVersion(row: WindowRow, ifMatch: number | undefined): void {
  if (ifMatch !== undefined && row.updated_at.getTime() !== ifMatch)
    throw new ApiError("PRECONDITION_FAILED", `Maintenance window ${row.id} changed since it was read: read it again.`);
}

const date = (s: string | null | undefined) => (s == null ? null : new Date(s));
type Values = Omit<typeof maintenanceWindows.$inferInsert, "id" | "created_at" | "updated_at">;

/** The stored values a body makes over `before` (for PATCH), checked whole: 422 naming every problem. */
async function windowValues(db: Db, body: MaintenanceWindowInput, before: WindowRow | null): Promise<Values> {
  const pick = <K extends keyof WindowRow>(k: K, given: WindowRow[K] | undefined, fallback: WindowRow[K]) =>
    given !== undefined ? given : before ? before[k] : fallback;
  const merged = {
    name: pick("name", body.name, ""),
    description: pick("description", body.description, null),
    enabled: pick("enabled", body.enabled, true),
    starts_at: body.starts_at !== undefined ? date(body.starts_at) : (before?.starts_at ?? null),
    ends_at: body.ends_at !== undefined ? date(body.ends_at) : (before?.ends_at ?? null),
    cron: pick("cron", body.cron, null),
    duration_minutes: pick("duration_minutes", body.duration_minutes, null),
    timezone: pick("timezone", body.timezone, null),
    monitor_ids: pick("monitor_ids", body.monitor_ids, []),
    target_type: pick("target_type", body.target_type, null),
    target_id: pick("target_id", body.target_id, null),
    site_id: pick("site_id", body.site_id, null),
    tag: pick("tag", body.tag, null),
  };
  const { kind, issues } = checkTiming(merged);
  const add = (field: string, msg: string, type = "invalid") => issues.push({ loc: ["body", field], msg, type } satisfies ValidationIssue);
  if (merged.monitor_ids.length === 0 && merged.target_type == null && merged.site_id == null && merged.tag == null)
    add("monitor_ids", "Say what the window covers: monitor_ids, a target (target_type and target_id), a site_id or a tag.", "missing");
  if (merged.monitor_ids.length > 0) {
    const found = new Set(
      (await db.select({ id: monitors.id }).from(monitors).where(inArray(monitors.id, merged.monitor_ids))).map((r) => r.id),
    );
    const missing = merged.monitor_ids.filter((id) => !found.has(id));
    if (missing.length > 0) add("monitor_ids", `No such monitor: ${missing.join(", ")}.`, "not_found");
  }
  if ((merged.target_type == null) !== (merged.target_id == null)) add("target_id", "Give target_type and target_id together.");
  else if (
    merged.target_type != null &&
    merged.target_type !== "ip" &&
    !(await findTarget(db, merged.target_type as TargetType, merged.target_id!))
  )
    add("target_id", `There is no ${merged.target_type} ${merged.target_id}.`, "not_found");
  if (merged.site_id != null && (await db.select({ id: sites.id }).from(sites).where(eq(sites.id, merged.site_id))).length === 0)
    add("site_id", `There is no site ${merged.site_id}.`, "not_found");
  if (issues.length > 0) throw ApiError.validation(issues);
  return { ...merged, kind, timezone: kind === "recurring" ? (merged.timezone ?? "UTC") : merged.timezone };
}

function announce(s: VerbScope, id: number, action: string, diff: Record<string, unknown>) {
  s.audit({ action: `monitors.maintenance.${action}`, category: "monitors", entity_type: "maintenance_window", entity_id: id, diff });
  s.emit("monitors", { type: "maintenance_window", action, window_id: id });
  // The runner re-reads windows on its next pass; waking it applies a change at once.
  wakeRunner(s, [], "updated");
}

export const createWindow = defineVerb<{ body: MaintenanceWindowInput }, MaintenanceWindowShape>(
  { scope: WRITE_MONITORS },
  async (s, { body }) => {
    const values = await windowValues(s.tx, body, null);
    const [row] = await s.tx
      .insert(maintenanceWindows)
      .values({ ...values, created_at: s.now, updated_at: s.now })
      .returning();
    announce(s, row!.id, "create", { after: presentWindow(row!, s.now) });
    return presentWindow(row!, s.now);
  },
);

export const patchWindow = defineVerb<{ id: number; body: MaintenanceWindowInput; ifMatch?: number | undefined }, MaintenanceWindowShape>(
  { scope: WRITE_MONITORS },
  async (s, { id, body, ifMatch }) => {
    const before = await requireWindow(s.tx, id, true);
    checkWindowVersion(before, ifMatch);
    const values = await windowValues(s.tx, body, before);
    // The version must move on even within one millisecond: it is the ETag.
    const updated = new Date(Math.max(s.now.getTime(), before.updated_at.getTime() + 1));
    const [row] = await s.tx
      .update(maintenanceWindows)
      .set({ ...values, updated_at: updated })
      .where(eq(maintenanceWindows.id, id))
      .returning();
    announce(s, id, "update", { before: presentWindow(before, s.now), after: presentWindow(row!, s.now) });
    return presentWindow(row!, s.now);
  },
);

export const deleteWindow = defineVerb<{ id: number; ifMatch?: number | undefined }, void>(
  { scope: DELETE_MONITORS },
  async (s, { id, ifMatch }) => {
    const before = await requireWindow(s.tx, id, true);
    checkWindowVersion(before, ifMatch);
    await s.tx.delete(maintenanceWindows).where(eq(maintenanceWindows.id, id));
    announce(s, id, "delete", { before: presentWindow(before, s.now) });
  },
);

export const getWindow = defineRead<{ id: number }, MaintenanceWindowShape>({ scope: READ_MONITORS }, async (ctx, { id }) =>
  presentWindow(await requireWindow(ctx.db, id), ctx.clock.now()),
);

const SPEC: ListSpec = {
  table: maintenanceWindows,
  id: maintenanceWindows.id,
  sortable: { name: sql`lower(${maintenanceWindows.name})`, id: maintenanceWindows.id, created_at: maintenanceWindows.created_at },
  search: [maintenanceWindows.name],
};

export const listWindows = defineRead<
  ListParams & { enabled?: boolean | undefined; monitor_id?: number | undefined },
  ListPage<MaintenanceWindowShape>
>({ scope: READ_MONITORS }, (ctx, input) =>
  listPage<WindowRow, MaintenanceWindowShape>(
    ctx.db,
    SPEC,
    input,
    [
      input.enabled !== undefined ? eq(maintenanceWindows.enabled, input.enabled) : undefined,
      input.monitor_id !== undefined ? sql`${input.monitor_id} = any(${maintenanceWindows.monitor_ids})` : undefined,
    ],
    (rows) => rows.map((r) => presentWindow(r, ctx.clock.now())),
  ),
);
