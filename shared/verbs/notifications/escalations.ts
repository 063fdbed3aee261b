// Escalation (docs/adr/0448-escalation-policies.md). When an incident's opening alert is sent through a
// route naming a policy, an escalation row starts with it; the job below walks it: step 1's sinks are
// notified `after_minutes` after the dispatch if the incident is still open and unacknowledged, each next
// step `after_minutes` after the one before, the whole sequence `repeat` more times; the routes' own sinks
// are re-notified every `renotify_every_minutes`. A recovery ends it; an acknowledgement ends the steps
// and pauses re-notification (an un-acknowledge resumes it). Every step is a delivery with its record,
// told apart by (escalation_step, escalation_round). Rows are taken with SKIP LOCKED in bounded batches,
// so several sidecars never send a step twice.
import { and, eq, inArray, sql } from "drizzle-orm";
import {
  notificationAlerts,
  notificationDeliveries,
  notificationEscalationPolicies,
  notificationEscalations,
  notificationSinks,
} from "../../db/schema/index.ts";
import { alertStatusOf } from "../../domain/notifications/alert-status.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { NOTIFICATIONS_CHANNEL } from "./enqueue-alert.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";

type AlertRow = typeof notificationAlerts.$inferSelect;
type EscalationRow = typeof notificationEscalations.$inferSelect;
type PolicyRow = typeof notificationEscalationPolicies.$inferSelect;

const MINUTE = 60_000;
const after = (from: Date, minutes: number) => new Date(from.getTime() + minutes * MINUTE);
const earliest = (...ds: (Date | null)[]) => ds.reduce<Date | null>((a, d) => (d === null ? a : a === null || d < a ? d : a), null);

/** Called by the dispatch, in its transaction: the incident's opening alert went out through these policies' routes. */
export async function startEscalations(
  s: VerbScope,
  alert: AlertRow,
  policies: { policy_id: number; sink_ids: number[] }[],
): Promise<void> {
  if (policies.length === 0 || alertStatusOf(alert.kind) !== "firing" || alert.incident_id !== alert.id) return;
  if (alert.resolved_at || alert.acknowledged_at) return;
  const rows = await s.tx
    .select()
    .from(notificationEscalationPolicies)
    .where(
      inArray(
        notificationEscalationPolicies.id,
        policies.map((p) => p.policy_id),
      ),
    );
  for (const policy of rows) {
    const first = policy.steps[0];
    const next_step_at = first ? after(s.now, first.after_minutes) : null;
    const next_renotify_at = policy.renotify_every_minutes ? after(s.now, policy.renotify_every_minutes) : null;
    await s.tx
      .insert(notificationEscalations)
      .values({
        alert_id: alert.id,
        policy_id: policy.id,
        route_sink_ids: policies.find((p) => p.policy_id === policy.id)!.sink_ids,
        next_step: first ? 1 : null,
        next_step_at,
        next_renotify_at,
        due_at: earliest(next_step_at, next_renotify_at),
        created_at: s.now,
        updated_at: s.now,
      })
      .onConflictDoNothing();
  }
}

export interface EscalationOptions {
  maxAttempts: number;
  /** Escalations handled per call (the worker calls again while there are more). */
  batch?: number;
}

interface Send {
  sink_id: number;
  step: number;
  round: number;
}

/** The step after (step, round) in `policy`, or null when the sequence has run out. */
function nextOf(policy: PolicyRow, step: number, round: number): { step: number; round: number } | null {
  if (step < policy.steps.length) return { step: step + 1, round };
  if (round < policy.repeat && policy.steps.length > 0) return { step: 1, round: round + 1 };
  return null;
}

/** What one due escalation does now, and where it stands after. */
function advance(
  row: EscalationRow,
  policy: PolicyRow,
  incident: { resolved: boolean; acknowledged: boolean },
  now: Date,
): { sends: Send[]; set: Partial<EscalationRow> } {
  if (incident.resolved) return { sends: [], set: { state: "resolved", due_at: null } };
  const sends: Send[] = [];
  let { next_step, next_round, next_step_at, renotify_count, next_renotify_at } = row;
  if (next_step !== null && next_step_at !== null && next_step_at <= now) {
    if (incident.acknowledged) {
      // Somebody has it in hand: nobody further up needs paging.
      next_step = null;
    } else {
      // A policy shortened since: a step past its end ends the pass.
      const step = policy.steps[next_step - 1];
      if (step) for (const sink_id of step.sink_ids) sends.push({ sink_id, step: next_step, round: next_round });
      const next = step ? nextOf(policy, next_step, next_round) : nextOf(policy, policy.steps.length, next_round);
      next_step = next?.step ?? null;
      next_round = next?.round ?? next_round;
    }
    next_step_at = next_step !== null ? after(now, policy.steps[next_step - 1]!.after_minutes) : null;
  }
  const every = policy.renotify_every_minutes;
  if (every == null) next_renotify_at = null;
  else if (next_renotify_at === null) next_renotify_at = after(now, every);
  else if (next_renotify_at <= now) {
    if (!incident.acknowledged) {
      renotify_count++;
      for (const sink_id of row.route_sink_ids) sends.push({ sink_id, step: 0, round: renotify_count });
    }
    next_renotify_at = after(now, every);
  }
  const due_at = earliest(next_step_at, next_renotify_at);
  const state = due_at === null ? (incident.acknowledged ? "acknowledged" : "done") : "active";
  return { sends, set: { state, next_step, next_round, next_step_at, renotify_count, next_renotify_at, due_at } };
}

export const runEscalations = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, options: EscalationOptions): Promise<{ handled: number; deliveries: number }> => {
    const due = await s.tx
      .select()
      .from(notificationEscalations)
      .where(
        and(eq(notificationEscalations.state, "active"), sql`${notificationEscalations.due_at} <= ${s.now.toISOString()}::timestamptz`),
      )
      .orderBy(notificationEscalations.due_at, notificationEscalations.id)
      .limit(options.batch ?? 100)
      .for("update", { skipLocked: true });
    if (due.length === 0) return { handled: 0, deliveries: 0 };
    const alerts = await s.tx
      .select({
        id: notificationAlerts.id,
        resolved_at: notificationAlerts.resolved_at,
        acknowledged_at: notificationAlerts.acknowledged_at,
      })
      .from(notificationAlerts)
      .where(
        inArray(
          notificationAlerts.id,
          due.map((d) => d.alert_id),
        ),
      );
    const policies = await s.tx
      .select()
      .from(notificationEscalationPolicies)
      .where(inArray(notificationEscalationPolicies.id, [...new Set(due.map((d) => d.policy_id))]));
    // A sink deleted or disabled since the policy named it is skipped, not failed.
    const sinks = new Set(
      (await s.tx.select({ id: notificationSinks.id }).from(notificationSinks).where(eq(notificationSinks.enabled, true))).map((k) => k.id),
    );
    let deliveries = 0;
    for (const row of due) {
      const alert = alerts.find((a) => a.id === row.alert_id);
      const policy = policies.find((p) => p.id === row.policy_id)!;
      const { sends, set } = advance(
        row,
        policy,
        { resolved: !alert || alert.resolved_at !== null, acknowledged: alert?.acknowledged_at != null },
        s.now,
      );
      const values = sends
        .filter((x) => sinks.has(x.sink_id))
        .map((x) => ({
          alert_id: row.alert_id,
          sink_id: x.sink_id,
          escalation_step: x.step,
          escalation_round: x.round,
          max_attempts: options.maxAttempts,
          next_attempt_at: s.now,
          created_at: s.now,
          updated_at: s.now,
        }));
      if (values.length > 0) {
        const inserted = await s.tx
          .insert(notificationDeliveries)
          .values(values)
          .onConflictDoNothing()
          .returning({ id: notificationDeliveries.id });
        deliveries += inserted.length;
      }
      await s.tx
        .update(notificationEscalations)
        .set({ ...set, updated_at: s.now })
        .where(eq(notificationEscalations.id, row.id));
    }
    if (deliveries > 0) await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ deliveries })})`);
    return { handled: due.length, deliveries };
  },
);

/** How a delivery of an escalation reads: which step, or which reminder, ahead of the alert's title. */
export function escalationLabel(step: number, round: number): string | null {
  if (step > 0) return round > 0 ? `Escalation step ${step}, pass ${round + 1}` : `Escalation step ${step}`;
  if (round > 0) return `Reminder ${round}`;
  return null;
}
