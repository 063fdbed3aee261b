// The delivery worker's first step: alerts past the grouping delay become deliveries. In order:
// 0. a down alert of a monitor inside a group monitor that is down (the nearest such group up the chain,
//    docs/adr/0440) is folded into the group's alert, which then names it; if the group's alert already
//    went out, the member's is sent naming it.
// 1. a down alert (or a threshold rule's metric.firing) whose target lies in the blast radius of a target
//    already down (another monitor's latest alert is a down, even one still waiting) is folded into that root's alert: state
//    `suppressed`, `suppressed_by` on the alert and on the monitor's latest down event. Recoveries are
//    never folded. A root waits (HOLD_MAX_MS at most) until every monitor in its radius has been
//    checked once since it failed, so dependents found on their next round still fold in; one found
//    after the root was sent anyway is sent on its own, naming the root, never silently folded.
// 2. a flapping monitor (FLAP_THRESHOLD changes within FLAP_WINDOW_MS, the rule flap detection uses) is
//    debounced: its alerts are kept but not sent until it settles.
// 3. a later failure of an incident someone acknowledged is kept, not sent (`in_hand`; docs/adr/0447).
// 4. the rest go to every enabled sink with an enabled route that admits the alert (severity floor, kind,
//    inventory scope), once per sink (route-targets.ts), or are held there by the route's quiet hours for
//    the digest (adr/0450). A root alert is sent naming every monitor folded into it so far; an incident's
//    opening alert starts the escalation policies of the routes that sent it (escalations.ts, adr/0448).
// Alerts are locked with SKIP LOCKED, so several sidecars dispatch without sending anything twice.
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { notificationAlerts } from "../../db/schema/index.ts";
import { ASSET_TYPES, type AssetType } from "../../domain/blast-radius.ts";
import { FLAP_THRESHOLD, FLAP_WINDOW_MS } from "../../domain/flap-window.ts";
import { alertStatusOf } from "../../domain/notifications/alert-status.ts";
import { chooseRoot, type DownTarget, groupedMessage, targetKey } from "../../domain/notifications/grouping.ts";
import { computeBlastRadius } from "../intelligence/blast-radius.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { NOTIFICATIONS_CHANNEL } from "./enqueue-alert.ts";
import { isIncidentInHand } from "./incident-in-hand.ts";
import { startEscalations } from "./escalations.ts";
import { enabledRoutes, routeTargets } from "./route-targets.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";

type AlertRow = typeof notificationAlerts.$inferSelect;

export interface DispatchOptions {
  groupingDelayMs: number;
  maxAttempts: number;
  /** Alerts handled per call (the worker calls again while there are more). */
  batch?: number;
}

export interface DispatchResult {
  dispatched: number;
  /** Root alerts kept waiting for the monitors behind them to be checked. */
  held: number;
  suppressed: number;
  debounced: number;
  unrouted: number;
  /** Later failures of an acknowledged incident: kept, not sent (state `in_hand`). */
  in_hand: number;
  deliveries: number;
}

const DOWN = "monitor.down";
const UP = "monitor.up";
/** A threshold rule firing on a node (alert-rules/evaluate-samples.ts): folded like a down, never a root. */
const METRIC_FIRING = "metric.firing";
/** How far back a monitor's latest alert still says it is down (older state is the monitors' own). */
const DOWN_LOOKBACK = "7 days";

/** The longest a root alert waits for the monitors behind it to be checked (their next round). */
const HOLD_MAX_MS = 5 * 60_000;
/** Slack beyond a dependent's interval for its check to start and be recorded. */
const HOLD_SLACK_S = 15;

const isAsset = (t: string | null): t is AssetType => t != null && (ASSET_TYPES as readonly string[]).includes(t);

async function radiusOf(db: Db, cache: Map<string, Set<string>>, type: AssetType, id: number): Promise<Set<string>> {
  const key = targetKey(type, id);
  let set = cache.get(key);
  if (!set) {
    set = new Set<string>();
    try {
      const r = await computeBlastRadius(db, type, id);
      for (const i of [...r.impacted_hardware, ...r.impacted_compute_units, ...r.impacted_services, ...r.impacted_storage])
        set.add(targetKey(i.asset_type, i.asset_id));
    } catch {
      // A target deleted since its monitor failed reaches nothing.
    }
    cache.set(key, set);
  }
  return set;
}

/** Monitors whose latest alert is a down, with their targets (assets only: the graph knows nothing else). */
async function downTargets(
  db: Db,
  now: Date,
): Promise<{ alert_id: number; monitor_id: number; target_type: AssetType; target_id: number; suppressed_by: number | null }[]> {
  const rows = await queryRows<{
    id: number;
    monitor_id: number;
    kind: string;
    target_type: string | null;
    target_id: number | null;
    suppressed_by: number | null;
  }>(
    db,
    sql`select distinct on (monitor_id) id::int as id, monitor_id, kind, target_type, target_id, suppressed_by::int as suppressed_by
      from notification_alerts
      where monitor_id is not null and kind in (${DOWN}, ${UP}) and occurred_at > ${now.toISOString()}::timestamptz - interval '${sql.raw(DOWN_LOOKBACK)}'
      order by monitor_id, occurred_at desc, id desc`,
  );
  return rows
    .filter((r) => r.kind === DOWN && isAsset(r.target_type) && r.target_id != null)
    .map((r) => ({
      alert_id: r.id,
      monitor_id: r.monitor_id,
      target_type: r.target_type as AssetType,
      target_id: r.target_id!,
      suppressed_by: r.suppressed_by,
    }));
}

/**
 * Whether monitors in `alert`'s blast radius, still up or pending, have not been checked since it failed
 * and are within one interval (plus slack) of it: their failure, if it comes, belongs in this alert.
 */
async function dependentsUnchecked(db: Db, radii: Map<string, Set<string>>, alert: AlertRow, now: Date): Promise<boolean> {
  if (now.getTime() - alert.occurred_at.getTime() >= HOLD_MAX_MS) return false;
  const radius = await radiusOf(db, radii, alert.target_type as AssetType, alert.target_id!);
  if (radius.size === 0) return false;
  const byType = new Map<string, number[]>();
  for (const key of radius) {
    const [type, id] = key.split(":");
    byType.set(type!, [...(byType.get(type!) ?? []), Number(id)]);
  }
  const at = alert.occurred_at.toISOString();
  for (const [type, ids] of byType) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from monitors
        where enabled and status not in ('down', 'maintenance') and target_type = ${type} and target_id = any(${`{${ids.join(",")}}`}::int[])
          and (last_polled_at is null or last_polled_at < ${at}::timestamptz)
          and ${now.toISOString()}::timestamptz < ${at}::timestamptz + make_interval(secs => interval_secs + ${HOLD_SLACK_S})`,
    );
    if ((row?.n ?? 0) > 0) return true;
  }
  return false;
}

/**
 * The alert of the nearest group above `monitorId` (docs/adr/0440: a group is judged in the transaction
 * that records its member's result, so its down alert exists by the time the member's is dispatched)
 * whose latest alert is a down: the member's failure is part of it.
 */
async function downGroupAlert(db: Db, monitorId: number, now: Date): Promise<{ id: number; state: string; title: string } | null> {
  const [row] = await queryRows<{ id: number; state: string; title: string }>(
    db,
    sql`with recursive chain as (
        select group_id, 1 as depth from monitors where id = ${monitorId} and group_id is not null
        union all
        select m.group_id, c.depth + 1 from monitors m join chain c on m.id = c.group_id where m.group_id is not null and c.depth < 8),
      latest as (
        select distinct on (a.monitor_id) a.id::int as id, a.kind, a.state, a.title, c.depth
        from chain c join notification_alerts a on a.monitor_id = c.group_id
        where a.kind in (${DOWN}, ${UP}) and a.occurred_at > ${now.toISOString()}::timestamptz - interval '${sql.raw(DOWN_LOOKBACK)}'
        order by a.monitor_id, a.occurred_at desc, a.id desc)
      select id, state, title from latest where kind = ${DOWN} order by depth limit 1`,
  );
  return row ?? null;
}

async function isFlapping(db: Db, alert: AlertRow): Promise<boolean> {
  if (alert.monitor_id == null) return false;
  const from = new Date(alert.occurred_at.getTime() - FLAP_WINDOW_MS).toISOString();
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from notification_alerts
      where monitor_id = ${alert.monitor_id} and kind in (${DOWN}, ${UP}) and occurred_at >= ${from}::timestamptz and occurred_at <= ${alert.occurred_at.toISOString()}::timestamptz`,
  );
  return (row?.n ?? 0) >= FLAP_THRESHOLD;
}

async function foldInto(s: VerbScope, alert: AlertRow, rootId: number): Promise<void> {
  await s.tx
    .update(notificationAlerts)
    .set({ state: "suppressed", suppressed_by: rootId, dispatched_at: s.now })
    .where(eq(notificationAlerts.id, alert.id));
  if (alert.monitor_id != null) {
    await s.tx.execute(sql`update monitor_events set suppressed_by = ${rootId}
      where id = (select id from monitor_events where monitor_id = ${alert.monitor_id} and event_type = 'down' order by id desc limit 1)`);
    // The fold happens a grouping delay after the down event: the open pages of the monitor and of its
    // root learn of it here.
    const [root] = await s.tx
      .select({ monitor_id: notificationAlerts.monitor_id })
      .from(notificationAlerts)
      .where(eq(notificationAlerts.id, rootId));
    s.emit("monitors", {
      type: "suppressed",
      monitor_id: alert.monitor_id,
      suppressed_by: rootId,
      root_monitor_id: root?.monitor_id ?? null,
    });
  }
}

/**
 * A root about to be sent takes in the down alerts of its blast radius that are still waiting (they failed
 * after it, inside the grouping delay), so its message names them all instead of sending them later.
 */
async function foldWaitingDependents(
  s: VerbScope,
  radii: Map<string, Set<string>>,
  root: AlertRow,
  folded: Set<number>,
  decided: Decided,
): Promise<number> {
  const own = await radiusOf(s.tx, radii, root.target_type as AssetType, root.target_id!);
  if (own.size === 0) return 0;
  const waiting = await s.tx
    .select()
    .from(notificationAlerts)
    .where(
      and(
        eq(notificationAlerts.state, "waiting"),
        inArray(notificationAlerts.kind, [DOWN, METRIC_FIRING]),
        sql`${notificationAlerts.id} <> ${root.id}`,
      ),
    )
    .orderBy(notificationAlerts.id)
    .for("update", { skipLocked: true });
  let n = 0;
  for (const other of waiting) {
    // Sent (or unrouted) earlier in this call: still `waiting` in the table until the writes are made.
    if (decided.has(other.id)) continue;
    if (!isAsset(other.target_type) || other.target_id == null) continue;
    const key = targetKey(other.target_type, other.target_id);
    if (key === targetKey(root.target_type!, root.target_id!) || !own.has(key)) continue;
    // Each in the other's radius: the older alert is the root (as chooseRoot decides).
    const theirs = await radiusOf(s.tx, radii, other.target_type, other.target_id);
    if (theirs.has(targetKey(root.target_type!, root.target_id!)) && other.id < root.id) continue;
    await foldInto(s, other, root.id);
    folded.add(other.id);
    n++;
  }
  return n;
}

/** Alerts of this call already sent or found unrouted, whose rows are written together later: state and title as sent. */
type Decided = Map<number, { state: string; title: string }>;

/** A read of an alert's state and title, as this call decided it when its write is still to be made. */
function asDecided<T extends { id: number; state: string; title: string }>(decided: Decided, row: T | null | undefined): T | null {
  if (!row) return null;
  const d = decided.get(row.id);
  return d ? { ...row, ...d } : row;
}

/**
 * The writes of the alerts sent in one dispatch call: each alert's new state and message, and its
 * deliveries, made in two statements for the whole batch instead of two per alert (the burst benchmark,
 * issue 30; docs/adr/0462-delivery-claim-per-sink.md). Reads that must see them flush first.
 */
function dispatchWrites(s: VerbScope, maxAttempts: number) {
  const decided: Decided = new Map();
  let alerts: { id: number; state: string; title: string; body: string; detail: Record<string, unknown> | null }[] = [];
  let deliveries: { alert_id: number; sink_id: number; state: string; next_attempt_at: string }[] = [];
  const pendingIds: number[] = [];
  return {
    decided,
    pendingIds,
    add(
      alert: { id: number; state: string; title: string; body: string; detail: Record<string, unknown> | null },
      sinks: { sink_id: number; held_until: Date | null }[],
    ) {
      decided.set(alert.id, { state: alert.state, title: alert.title });
      alerts.push(alert);
      for (const { sink_id, held_until } of sinks)
        deliveries.push({
          alert_id: alert.id,
          sink_id,
          // Held by quiet hours: the digest job takes it when they end (next_attempt_at).
          state: held_until ? "held" : "pending",
          next_attempt_at: (held_until ?? s.now).toISOString(),
        });
    },
    async flush() {
      const now = s.now.toISOString();
      if (alerts.length > 0)
        await s.tx.execute(sql`update notification_alerts a set state = v.state, dispatched_at = ${now}::timestamptz,
            title = v.title, body = v.body, detail = coalesce(v.detail, a.detail)
          from jsonb_to_recordset(${JSON.stringify(alerts)}::jsonb) as v(id bigint, state text, title text, body text, detail jsonb)
          where a.id = v.id`);
      if (deliveries.length > 0) {
        const inserted = await queryRows<{ id: number; state: string }>(
          s.tx,
          sql`insert into notification_deliveries (alert_id, sink_id, state, max_attempts, next_attempt_at, created_at, updated_at)
            select v.alert_id, v.sink_id, v.state, ${maxAttempts}::int, v.next_attempt_at, ${now}::timestamptz, ${now}::timestamptz
            from jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb) as v(alert_id bigint, sink_id int, state text, next_attempt_at timestamptz)
            on conflict do nothing
            returning id::int as id, state`,
        );
        pendingIds.push(...inserted.filter((d) => d.state === "pending").map((d) => d.id));
      }
      alerts = [];
      deliveries = [];
    },
  };
}

export const dispatchAlerts = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, options: DispatchOptions): Promise<DispatchResult> => {
  const result: DispatchResult = { dispatched: 0, held: 0, suppressed: 0, debounced: 0, unrouted: 0, in_hand: 0, deliveries: 0 };
  const ripe = new Date(s.now.getTime() - options.groupingDelayMs);
  const alerts = await s.tx
    .select()
    .from(notificationAlerts)
    .where(and(eq(notificationAlerts.state, "waiting"), sql`${notificationAlerts.occurred_at} <= ${ripe.toISOString()}::timestamptz`))
    .orderBy(notificationAlerts.occurred_at, notificationAlerts.id)
    .limit(options.batch ?? 200)
    .for("update", { skipLocked: true });
  if (alerts.length === 0) return result;

  const radii = new Map<string, Set<string>>();
  const routes = await enabledRoutes(s.tx);
  let down: DownTarget[] | null = null;
  const writes = dispatchWrites(s, options.maxAttempts);
  const folded = new Set<number>();
  for (const alert of alerts) {
    if (folded.has(alert.id)) continue;
    let lateRoot: { id: number; title: string } | null = null;
    // A member of a group that is down is folded into the group's alert, which names its members.
    const group =
      alert.kind === DOWN && alert.monitor_id != null
        ? asDecided(writes.decided, await downGroupAlert(s.tx, alert.monitor_id, s.now))
        : null;
    if (group && (group.state === "waiting" || group.state === "suppressed")) {
      await foldInto(s, alert, group.id);
      result.suppressed++;
      continue;
    }
    // A group's alert already sent: this member's is sent on its own, naming it. One that was never sent
    // (unrouted, debounced) names nothing.
    if (group?.state === "dispatched") lateRoot = { id: group.id, title: group.title };
    else if ((alert.kind === DOWN || alert.kind === METRIC_FIRING) && isAsset(alert.target_type) && alert.target_id != null) {
      if (!down) {
        const targets = await downTargets(s.tx, s.now);
        down = [];
        for (const t of targets)
          down.push({
            alert_id: t.alert_id,
            target: targetKey(t.target_type, t.target_id),
            suppressed_by: t.suppressed_by,
            radius: await radiusOf(s.tx, radii, t.target_type, t.target_id),
          });
      }
      const own = await radiusOf(s.tx, radii, alert.target_type, alert.target_id);
      const root = chooseRoot(alert.id, targetKey(alert.target_type, alert.target_id), own, down);
      if (root != null) {
        const rootRow = asDecided(
          writes.decided,
          (
            await s.tx
              .select({ id: notificationAlerts.id, state: notificationAlerts.state, title: notificationAlerts.title })
              .from(notificationAlerts)
              .where(eq(notificationAlerts.id, root))
          )[0],
        );
        if (rootRow?.state === "waiting" || rootRow?.state === "suppressed") {
          await foldInto(s, alert, root);
          const mine = down.find((d) => d.alert_id === alert.id);
          if (mine) mine.suppressed_by = root;
          result.suppressed++;
          continue;
        }
        // The root went out before this failure was seen: say so here rather than fold it unseen.
        lateRoot = rootRow ? { id: root, title: rootRow.title } : null;
      } else if (alert.kind === DOWN && (await dependentsUnchecked(s.tx, radii, alert, s.now))) {
        result.held++;
        continue;
      }
    }
    if ((alert.kind === DOWN || alert.kind === UP) && (await isFlapping(s.tx, alert))) {
      await s.tx.update(notificationAlerts).set({ state: "debounced", dispatched_at: s.now }).where(eq(notificationAlerts.id, alert.id));
      result.debounced++;
      continue;
    }
    // An incident someone has in hand is not notified again (docs/adr/0447): its later failures are kept, not sent.
    if (
      alert.incident_id != null &&
      alert.incident_id !== alert.id &&
      alertStatusOf(alert.kind) === "firing" &&
      (await isIncidentInHand(s.tx, alert.incident_id))
    ) {
      await s.tx.update(notificationAlerts).set({ state: "in_hand", dispatched_at: s.now }).where(eq(notificationAlerts.id, alert.id));
      result.in_hand++;
      continue;
    }
    if (alert.kind === DOWN && isAsset(alert.target_type) && alert.target_id != null) {
      const n = await foldWaitingDependents(s, radii, alert, folded, writes.decided);
      result.suppressed += n;
    }
    // Only a down can be a root that others were folded into.
    const members =
      alert.kind !== DOWN
        ? []
        : await s.tx
            .select({
              monitor_id: notificationAlerts.monitor_id,
              title: notificationAlerts.title,
              target_type: notificationAlerts.target_type,
              target_id: notificationAlerts.target_id,
            })
            .from(notificationAlerts)
            .where(eq(notificationAlerts.suppressed_by, alert.id))
            .orderBy(notificationAlerts.id);
    const message = groupedMessage(
      alert.title,
      lateRoot ? `${alert.body}\n\nBehind "${lateRoot.title}", already reported.` : alert.body,
      members,
    );
    // A recovery reads how its opening alert went to each sink: that alert's deliveries must be written.
    if (alert.incident_id != null && writes.decided.has(alert.incident_id)) await writes.flush();
    const { sinks, policies } = await routeTargets(s.tx, routes, alert, s.now);
    writes.add(
      {
        id: alert.id,
        state: sinks.length > 0 ? "dispatched" : "unrouted",
        title: message.title,
        body: message.body,
        detail:
          members.length > 0 || lateRoot
            ? {
                ...alert.detail,
                ...(members.length > 0 ? { affected: members } : {}),
                ...(lateRoot ? { root_alert_id: lateRoot.id } : {}),
              }
            : null,
      },
      sinks,
    );
    if (sinks.length === 0) {
      result.unrouted++;
      continue;
    }
    await startEscalations(s, alert, policies);
    result.dispatched++;
  }
  await writes.flush();
  result.deliveries = writes.pendingIds.length;
  if (result.deliveries > 0)
    await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ deliveries: result.deliveries })})`);
  return result;
});
