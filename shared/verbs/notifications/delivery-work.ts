// The delivery worker's verbs around one send (the send itself is the sidecar's, outside any transaction):
// claim due deliveries with SKIP LOCKED under a lease (a worker that dies loses only its lease: another
// takes the delivery when it runs out), then record each attempt: delivered, retrying after an
// exponential backoff with jitter, or dead after the last attempt.
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { notificationAlerts, notificationAttempts, notificationDeliveries, notificationSinks } from "../../db/schema/index.ts";
import { type BackoffPolicy, backoffMs } from "../../domain/notifications/backoff.ts";
import { isNotifierType, type NotifierType } from "../../domain/notifications/notifiers/index.ts";
import { alertStatusOf, dedupKeyOf } from "../../domain/notifications/alert-status.ts";
import { normalizeSeverity } from "../../domain/notifications/severity.ts";
import type { AlertMessage } from "../../domain/notifications/notifiers/notifier.ts";
import type { Vault } from "../../vault/vault.ts";
import { defineVerb } from "../verb.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";
import { escalationLabel } from "./escalations.ts";
import { openSinkSecrets } from "./sink-secrets.ts";

export interface DeliveryJob {
  delivery_id: number;
  attempt: number;
  sink: { id: number; provider_type: NotifierType; config: Record<string, unknown>; secrets: Record<string, string> };
  message: AlertMessage;
}

export interface ClaimOptions {
  limit: number;
  leaseMs: number;
  vault: Vault;
}

/** Claims up to `limit` due deliveries of enabled sinks and answers what to send for each. */
export const claimDeliveries = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { limit, leaseMs, vault }: ClaimOptions): Promise<{ jobs: DeliveryJob[]; failed: { id: number; error: string }[] }> => {
    const now = s.now.toISOString();
    const until = new Date(s.now.getTime() + leaseMs).toISOString();
    const claimed = await queryRows<{
      id: number;
      alert_id: number;
      sink_id: number;
      attempt_count: number;
      escalation_step: number;
      escalation_round: number;
    }>(
      s.tx,
      sql`update notification_deliveries set claimed_until = ${until}::timestamptz, updated_at = ${now}::timestamptz
      where id in (
        select d.id from notification_deliveries d join notification_sinks k on k.id = d.sink_id and k.enabled
        where d.state in ('pending', 'retrying') and d.next_attempt_at <= ${now}::timestamptz
          and (d.claimed_until is null or d.claimed_until < ${now}::timestamptz)
        order by d.next_attempt_at, d.id limit ${limit}
        for update of d skip locked)
      returning id::int as id, alert_id::int as alert_id, sink_id, attempt_count, escalation_step, escalation_round`,
    );
    const jobs: DeliveryJob[] = [];
    const failed: { id: number; error: string }[] = [];
    for (const d of claimed) {
      const [alert] = await s.tx.select().from(notificationAlerts).where(eq(notificationAlerts.id, d.alert_id));
      const [sink] = await s.tx.select().from(notificationSinks).where(eq(notificationSinks.id, d.sink_id));
      if (!alert || !sink) continue;
      if (!isNotifierType(sink.provider_type)) {
        failed.push({ id: d.id, error: `Unknown provider type: ${sink.provider_type}` });
        continue;
      }
      const secrets = await openSinkSecrets(vault, sink).catch(() => null);
      if (!secrets) {
        failed.push({ id: d.id, error: "The sink's secrets cannot be opened with this server's vault key." });
        continue;
      }
      // An escalation step or a reminder says so ahead of the title, and has its own message id.
      const label = escalationLabel(d.escalation_step, d.escalation_round);
      jobs.push({
        delivery_id: d.id,
        attempt: d.attempt_count + 1,
        sink: { id: sink.id, provider_type: sink.provider_type, config: sink.provider_config, secrets },
        message: {
          id: `alert_${alert.id}_sink_${sink.id}${label ? `_step_${d.escalation_step}_round_${d.escalation_round}` : ""}`,
          kind: alert.kind,
          status: alertStatusOf(alert.kind),
          dedup_key: dedupKeyOf(alert),
          links: {},
          severity: normalizeSeverity(alert.severity),
          title: label ? `[${label}] ${alert.title}` : alert.title,
          body: alert.body,
          occurred_at: alert.occurred_at.toISOString(),
          data: {
            alert_id: alert.id,
            monitor_id: alert.monitor_id,
            target_type: alert.target_type,
            target_id: alert.target_id,
            detail: alert.detail,
            ...(label ? { escalation: { step: d.escalation_step, round: d.escalation_round } } : {}),
          },
        },
      });
    }
    return { jobs, failed };
  },
);

export interface AttemptRecord {
  delivery_id: number;
  outcome: "delivered" | "failed" | "timeout";
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  started_at: Date;
  backoff: BackoffPolicy;
  /** A failure no retry can cure (a sink that cannot be opened): straight to the dead letter. */
  permanent?: boolean;
}

export const recordAttempt = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, r: AttemptRecord): Promise<{ state: string }> => {
  const [d] = await s.tx.select().from(notificationDeliveries).where(eq(notificationDeliveries.id, r.delivery_id)).for("update");
  if (!d) return { state: "gone" };
  const attempt = d.attempt_count + 1;
  await s.tx.insert(notificationAttempts).values({
    delivery_id: d.id,
    attempt,
    outcome: r.outcome,
    http_status: r.http_status,
    error: r.error?.slice(0, 1000) ?? null,
    duration_ms: Math.max(0, Math.round(r.duration_ms)),
    started_at: r.started_at,
  });
  const delivered = r.outcome === "delivered";
  const dead = !delivered && (r.permanent === true || attempt >= d.max_attempts);
  const draw = (s.ctx.random.bytes(1)[0] ?? 0) / 256;
  const state = delivered ? "delivered" : dead ? "dead" : "retrying";
  await s.tx
    .update(notificationDeliveries)
    .set({
      state,
      attempt_count: attempt,
      claimed_until: null,
      last_error: delivered ? null : r.error,
      delivered_at: delivered ? s.now : d.delivered_at,
      next_attempt_at: state === "retrying" ? new Date(s.now.getTime() + backoffMs(r.backoff, attempt, draw)) : s.now,
      updated_at: s.now,
    })
    .where(eq(notificationDeliveries.id, d.id));
  if (dead)
    s.audit({
      action: "notification_delivery_failed",
      category: "notifications",
      entity_type: "notification_delivery",
      entity_id: d.id,
      diff: { sink_id: d.sink_id, attempts: attempt, error: r.error },
    });
  return { state };
});
