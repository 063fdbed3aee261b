// Where a dispatched alert goes: every enabled sink with an enabled route that admits it (severity floor,
// kind, inventory scope), once per sink; whether quiet hours hold it for that sink (docs/adr/0450: held
// only when every route admitting it for the sink holds it; a recovery follows its incident's opening
// alert, so a page that went out is resolved at once); and the escalation policies of the routes that sent it.
import { and, eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { type notificationAlerts, notificationRoutes, notificationSinks } from "../../db/schema/index.ts";
import { alertStatusOf } from "../../domain/notifications/alert-status.ts";
import { heldBy, quietUntil } from "../../domain/notifications/quiet-hours.ts";
import { kindAdmitted, routeAdmits } from "../../domain/notifications/severity.ts";
import { targetScope } from "./target-scope.ts";

type AlertRow = typeof notificationAlerts.$inferSelect;

export interface RouteTargets {
  /** Each sink once; `held_until` set when quiet hours hold the alert for it (the end of the quiet period). */
  sinks: { sink_id: number; held_until: Date | null }[];
  /** The policies of the routes that sent it now (not held), with those routes' sinks. */
  policies: { policy_id: number; sink_ids: number[] }[];
}

/** For a recovery: how its incident's opening alert went to each sink (held, or sent). */
async function openerHeldBySink(db: Db, alert: AlertRow): Promise<Map<number, boolean>> {
  if (alertStatusOf(alert.kind) !== "resolved" || alert.incident_id == null) return new Map();
  const rows = await queryRows<{ sink_id: number; state: string }>(
    db,
    sql`select sink_id, state from notification_deliveries where alert_id = ${alert.incident_id} and escalation_step = 0 and escalation_round = 0`,
  );
  return new Map(rows.map((r) => [r.sink_id, r.state === "held" || r.state === "digested"]));
}

/** The enabled routes of enabled sinks: read once per dispatch call, not once per alert. */
export function enabledRoutes(db: Db) {
  return db
    .select({
      sink_id: notificationRoutes.sink_id,
      alert_severity: notificationRoutes.alert_severity,
      event_kinds: notificationRoutes.event_kinds,
      site_id: notificationRoutes.site_id,
      environment_id: notificationRoutes.environment_id,
      tag: notificationRoutes.tag,
      escalation_policy_id: notificationRoutes.escalation_policy_id,
      quiet_hours: notificationRoutes.quiet_hours,
    })
    .from(notificationRoutes)
    .innerJoin(notificationSinks, eq(notificationSinks.id, notificationRoutes.sink_id))
    .where(and(eq(notificationRoutes.enabled, true), eq(notificationSinks.enabled, true)))
    .orderBy(notificationRoutes.id);
}

type RouteRow = Awaited<ReturnType<typeof enabledRoutes>>[number];

export async function routeTargets(db: Db, routes: RouteRow[], alert: AlertRow, now: Date): Promise<RouteTargets> {
  if (alert.test_sink_id != null) return { sinks: [{ sink_id: alert.test_sink_id, held_until: null }], policies: [] };
  const admitted = routes.filter((r) => routeAdmits(r.alert_severity, alert.severity) && kindAdmitted(r.event_kinds, alert.kind));
  const scoped = admitted.some((r) => r.site_id != null || r.environment_id != null || r.tag != null);
  const scope = scoped ? await targetScope(db, alert.target_type, alert.target_id) : null;
  const inScope = admitted.filter(
    (r) =>
      (r.site_id == null || r.site_id === scope?.site_id) &&
      (r.environment_id == null || r.environment_id === scope?.environment_id) &&
      (r.tag == null || (scope?.tags.includes(r.tag) ?? false)),
  );
  const opener = await openerHeldBySink(db, alert);
  const holdOf = (r: (typeof inScope)[number]): Date | null => {
    if (!r.quiet_hours) return null;
    const openerHeld = opener.get(r.sink_id);
    if (openerHeld === false) return null;
    if (openerHeld === undefined && !heldBy(r.quiet_hours.hold_below, alert.severity)) return null;
    return quietUntil(r.quiet_hours, now);
  };
  const bySink = new Map<number, Date | null>();
  const sentBy: typeof inScope = [];
  for (const r of inScope) {
    const until = holdOf(r);
    if (until === null) sentBy.push(r);
    const before = bySink.get(r.sink_id);
    // Any route sending it now wins; among holding routes the earliest end of quiet hours.
    if (before === undefined) bySink.set(r.sink_id, until);
    else if (before !== null) bySink.set(r.sink_id, until === null || until < before ? until : before);
  }
  const policies = new Map<number, Set<number>>();
  for (const r of sentBy) {
    if (r.escalation_policy_id == null) continue;
    const sinks = policies.get(r.escalation_policy_id) ?? new Set<number>();
    sinks.add(r.sink_id);
    policies.set(r.escalation_policy_id, sinks);
  }
  return {
    sinks: [...bySink].map(([sink_id, held_until]) => ({ sink_id, held_until })),
    policies: [...policies].map(([policy_id, sinks]) => ({ policy_id, sink_ids: [...sinks] })),
  };
}
