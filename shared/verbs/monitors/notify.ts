// What a monitor verb tells the rest of the system, delivered on commit: the UI's /monitors/stream and
// /events/stream (channel `monitors`), the runner (channel `monitor_control`: wake up, something is due
// now or its assignment changed), the monitor's event history and the audit chain.
import { monitorEvents } from "../../db/schema/index.ts";
import type { VerbScope } from "../verb.ts";
import type { MonitorRow } from "./monitor-row.ts";

export const MONITOR_CONTROL_CHANNEL = "monitor_control";
export type MonitorAction = "created" | "updated" | "deleted" | "paused" | "resumed" | "check_requested";

export function announceMonitor(s: VerbScope, monitorId: number, action: MonitorAction, detail: Record<string, unknown> = {}): void {
  s.emit("monitors", { type: "monitor", action, monitor_id: monitorId, ...detail });
}

/** Wakes the runner: `monitor_ids` are due now or changed. */
export function wakeRunner(s: VerbScope, monitorIds: number[], reason: MonitorAction): void {
  s.emit(MONITOR_CONTROL_CHANNEL, { monitor_ids: monitorIds, reason });
}

/** A user action on the monitor's event history (paused, resumed). */
export async function recordUserEvent(
  s: VerbScope,
  before: MonitorRow,
  eventType: "paused" | "resumed",
  statusTo: string,
  msg: string,
): Promise<void> {
  const since = before.last_status_change_at ?? before.created_at;
  await s.tx.insert(monitorEvents).values({
    monitor_id: before.id,
    event_type: eventType,
    status_from: before.status,
    status_to: statusTo,
    msg,
    duration_secs: Math.max(0, Math.round((s.now.getTime() - since.getTime()) / 1000)),
    actor_user_id: s.ctx.actor?.userId ?? null,
    created_at: s.now,
  });
}

/** The audit entry of a monitor verb: action `monitors.<what>`, category monitors. */
export function auditMonitor(s: VerbScope, what: string, monitorId: number, diff: Record<string, unknown>): void {
  s.audit({ action: `monitors.${what}`, category: "monitors", entity_type: "monitor", entity_id: monitorId, diff });
}
