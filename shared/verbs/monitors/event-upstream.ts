// Both ends of a fold, for a monitor's events. What a suppressed event's `suppressed_by` points at: the root alert the
// delivery worker folded this monitor's down notification into (dispatch-alerts.ts), its monitor (name,
// status) and the target that monitor watches (the upstream node whose failure explains this one). The
// alert itself stays behind the notifications scopes; only who it was about is shown here. The target's
// name is given only to a caller who may read that inventory group (a narrowed token may not).
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { monitors, notificationAlerts } from "../../db/schema/index.ts";
import type { MonitorUpstreamShape, TargetType } from "../../schemas/monitors.ts";
import { TARGET_TYPES } from "../../schemas/monitors.ts";
import { type Actor, actorCan } from "../actor.ts";
import { findTarget } from "./targets.ts";

/** The read scope of each target type's inventory group. */
const TARGET_READ_SCOPE: Record<TargetType, string> = {
  hardware: "read:hardware",
  compute_unit: "read:compute",
  external_node: "read:external",
  service: "read:services",
  ip: "read:networks",
};

const isTargetType = (t: string | null): t is TargetType => t != null && (TARGET_TYPES as readonly string[]).includes(t);

/** The upstream of each alert id in `alertIds` (alerts since deleted are absent from the map). */
export async function upstreamsOf(db: Db, actor: Actor | undefined, alertIds: number[]): Promise<Map<number, MonitorUpstreamShape>> {
  const out = new Map<number, MonitorUpstreamShape>();
  if (alertIds.length === 0) return out;
  const alerts = await db
    .select({
      id: notificationAlerts.id,
      monitor_id: notificationAlerts.monitor_id,
      target_type: notificationAlerts.target_type,
      target_id: notificationAlerts.target_id,
    })
    .from(notificationAlerts)
    .where(inArray(notificationAlerts.id, alertIds));
  const monitorIds = [...new Set(alerts.map((a) => a.monitor_id).filter((id): id is number => id != null))];
  const rows = monitorIds.length
    ? await db
        .select({ id: monitors.id, name: monitors.name, status: monitors.status })
        .from(monitors)
        .where(inArray(monitors.id, monitorIds))
    : [];
  const byId = new Map(rows.map((m) => [m.id, m]));
  const names = new Map<string, string | null>();
  for (const a of alerts) {
    const m = a.monitor_id == null ? undefined : byId.get(a.monitor_id);
    let target: MonitorUpstreamShape["target"] = null;
    if (isTargetType(a.target_type) && a.target_id != null) {
      const key = `${a.target_type}:${a.target_id}`;
      if (!names.has(key)) {
        const readable = actor ? actorCan(actor, TARGET_READ_SCOPE[a.target_type]) : false;
        names.set(key, readable ? ((await findTarget(db, a.target_type, a.target_id))?.label ?? null) : null);
      }
      target = { type: a.target_type, id: a.target_id, name: names.get(key) ?? null };
    }
    out.set(a.id, {
      alert_id: a.id,
      // A monitor deleted since keeps its id here (the alert remembers it) with no name.
      monitor: a.monitor_id == null ? null : { id: a.monitor_id, name: m?.name ?? null, status: m?.status ?? null },
      target,
    });
  }
  return out;
}

/**
 * The other side of a fold: for each of a monitor's down events, the monitors whose down alerts were
 * folded into the alert that event raised. `roots` maps each such alert's id to its event's id
 * (event-alerts.ts). Read through notification_alerts' suppressed_by index, never by scanning the events.
 */
export async function dependentsOf(db: Db, roots: Map<number, number>): Promise<Map<number, { id: number; name: string | null }[]>> {
  const out = new Map<number, { id: number; name: string | null }[]>();
  if (roots.size === 0) return out;
  const folded = await db
    .select({ root: notificationAlerts.suppressed_by, monitor_id: notificationAlerts.monitor_id, name: monitors.name })
    .from(notificationAlerts)
    .leftJoin(monitors, eq(monitors.id, notificationAlerts.monitor_id))
    .where(inArray(notificationAlerts.suppressed_by, [...roots.keys()]))
    .orderBy(notificationAlerts.id)
    .limit(1000);
  for (const f of folded) {
    const eventId = f.root == null ? undefined : roots.get(f.root);
    if (eventId === undefined || f.monitor_id == null) continue;
    const list = out.get(eventId) ?? [];
    if (!list.some((m) => m.id === f.monitor_id)) list.push({ id: f.monitor_id, name: f.name });
    out.set(eventId, list);
  }
  return out;
}
