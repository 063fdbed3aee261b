// GET /notifications/deliveries (ours, docs/architecture.md, API contracts): every delivery of an alert to a sink with its state
// (pending | retrying | delivered | dead) and attempts; POST .../{id}/replay queues one again with a fresh
// attempt budget (a dead letter, or a delivered message sent once more). Attempts are kept: a replay adds
// to them.
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { notificationAlerts, notificationAttempts, notificationDeliveries, notificationSinks } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { AttemptOut, DeliveryShape } from "../../schemas/notifications.ts";
import type * as v from "valibot";

type AttemptShape = v.InferInput<typeof AttemptOut>;
import { type ListPage, listPage } from "../resources/list.ts";
import { defineSnapshotRead, defineVerb, type VerbScope } from "../verb.ts";
import type { Db } from "../../db/database.ts";
import { NOTIFICATIONS_CHANNEL } from "./enqueue-alert.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";

/** An alert's delivery to a sink; a status page subscriber's (alert and sink null, adr/0458) is not listed here. */
type DeliveryRow = typeof notificationDeliveries.$inferSelect & { alert_id: number; sink_id: number };
const ofAlerts = sql`${notificationDeliveries.alert_id} is not null`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// `db` is the verb's transaction when there is one: the embedded database has one connection, so a read
// outside an open transaction waits for it forever.
async function present(db: Db, rows: DeliveryRow[]): Promise<DeliveryShape[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [alerts, sinks, attempts] = await Promise.all([
    db
      .select()
      .from(notificationAlerts)
      .where(inArray(notificationAlerts.id, [...new Set(rows.map((r) => r.alert_id))])),
    db
      .select({ id: notificationSinks.id, name: notificationSinks.name })
      .from(notificationSinks)
      .where(inArray(notificationSinks.id, [...new Set(rows.map((r) => r.sink_id))])),
    attemptsOf(db, ids),
  ]);
  const alertOf = new Map(alerts.map((a) => [a.id, a]));
  const sinkName = new Map(sinks.map((s) => [s.id, s.name]));
  return rows.map((r) => {
    const a = alertOf.get(r.alert_id)!;
    return {
      id: r.id,
      alert_id: r.alert_id,
      sink_id: r.sink_id,
      sink_name: sinkName.get(r.sink_id) ?? null,
      ...progressOf(r),
      escalation_step: r.escalation_step,
      escalation_round: r.escalation_round,
      held_until: r.state === "held" ? r.next_attempt_at.toISOString() : null,
      alert: { kind: a.kind, severity: a.severity, title: a.title, monitor_id: a.monitor_id, occurred_at: a.occurred_at.toISOString() },
      attempts: attempts.get(r.id) ?? [],
    };
  });
}

/** What every delivery shows of its progress (DeliveryProgress): an alert's, and an event rule's. */
export function progressOf(r: typeof notificationDeliveries.$inferSelect) {
  return {
    state: r.state,
    attempt_count: r.attempt_count,
    max_attempts: r.max_attempts,
    next_attempt_at: r.state === "pending" || r.state === "retrying" ? r.next_attempt_at.toISOString() : null,
    last_error: r.last_error,
    delivered_at: iso(r.delivered_at),
    replayed_at: iso(r.replayed_at),
    created_at: r.created_at.toISOString(),
  };
}

/** The attempts of these deliveries, oldest first, in one read (the event deliveries' list shares it). */
export async function attemptsOf(db: Db, ids: number[]): Promise<Map<number, AttemptShape[]>> {
  const rows = await db
    .select()
    .from(notificationAttempts)
    .where(inArray(notificationAttempts.delivery_id, ids))
    .orderBy(asc(notificationAttempts.delivery_id), asc(notificationAttempts.id));
  const out = new Map<number, AttemptShape[]>();
  for (const t of rows) {
    const list = out.get(t.delivery_id) ?? [];
    list.push({
      attempt: t.attempt,
      outcome: t.outcome,
      http_status: t.http_status,
      error: t.error,
      duration_ms: t.duration_ms,
      started_at: t.started_at.toISOString(),
    });
    out.set(t.delivery_id, list);
  }
  return out;
}

const SPEC = {
  table: notificationDeliveries,
  id: notificationDeliveries.id,
  sortable: {
    created_at: notificationDeliveries.created_at,
    id: notificationDeliveries.id,
    state: notificationDeliveries.state,
    next_attempt_at: notificationDeliveries.next_attempt_at,
  },
  search: [notificationDeliveries.last_error],
};

export interface DeliveryListInput extends ListParams {
  state?: string | undefined;
  sink_id?: number | undefined;
  alert_id?: number | undefined;
  alert_kind?: string | undefined;
}

// One snapshot for the page and its attempts: the delivery worker records an attempt and the delivery's
// state and error in one transaction, and separate snapshots could show the attempt with the old state.
export const listDeliveries = defineSnapshotRead<DeliveryListInput, ListPage<DeliveryShape>>({ scope: ADMIN_NOTIFICATIONS }, (ctx, q) =>
  listPage<DeliveryRow, DeliveryShape>(
    ctx.db,
    SPEC,
    q,
    [
      ofAlerts,
      q.state ? eq(notificationDeliveries.state, q.state) : undefined,
      q.sink_id !== undefined ? eq(notificationDeliveries.sink_id, q.sink_id) : undefined,
      q.alert_id !== undefined ? eq(notificationDeliveries.alert_id, q.alert_id) : undefined,
      q.alert_kind
        ? sql`${notificationDeliveries.alert_id} in (select id from notification_alerts where kind = ${q.alert_kind})`
        : undefined,
    ],
    (rows) => present(ctx.db, rows),
  ),
);

export const replayDelivery = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { id, maxAttempts }: { id: number; maxAttempts: number }): Promise<DeliveryShape> =>
    (await present(s.tx, [(await replayRow(s, id, maxAttempts, ofAlerts)) as DeliveryRow]))[0]!,
);

/**
 * Queues the delivery `id` (among those `which` selects: 404 otherwise) again with a fresh budget of
 * `maxAttempts`; 409 while it is still on its way. Answers the row as it is now.
 */
export async function replayRow(
  s: VerbScope,
  id: number,
  maxAttempts: number,
  which: SQL,
): Promise<typeof notificationDeliveries.$inferSelect> {
  const [before] = await s.tx
    .select()
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.id, id), which))
    .for("update");
  if (!before) throw ApiError.notFound("Notification delivery", id);
  if (before.state === "pending" || before.state === "retrying" || before.state === "held")
    throw ApiError.conflict(`Delivery ${id} is still ${before.state}; only a delivered or dead delivery can be replayed.`);
  const [row] = await s.tx
    .update(notificationDeliveries)
    .set({
      state: "pending",
      max_attempts: before.attempt_count + maxAttempts,
      next_attempt_at: s.now,
      claimed_until: null,
      replayed_at: s.now,
      updated_at: s.now,
    })
    .where(and(eq(notificationDeliveries.id, id)))
    .returning();
  await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ delivery_id: id })})`);
  s.audit({
    action: "notification_delivery.replay",
    category: "notifications",
    entity_type: "notification_delivery",
    entity_id: id,
    diff: { state_before: before.state },
  });
  return row!;
}
