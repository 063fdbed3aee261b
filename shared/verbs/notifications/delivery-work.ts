// The delivery worker's verbs around one send (the send itself is the sidecar's, outside any transaction):
// claim due deliveries with SKIP LOCKED under a lease (a worker that dies loses only its lease: another
// takes the delivery when it runs out), then record each attempt: delivered, retrying after an
// exponential backoff with jitter, or dead after the last attempt.
import { inArray, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import {
  monitors,
  notificationAlerts,
  notificationAttempts,
  notificationDeliveries,
  notificationSinks,
  type SubscriberNoticeRow,
} from "../../db/schema/index.ts";
import { type BackoffPolicy, backoffMs } from "../../domain/notifications/backoff.ts";
import { isNotifierType } from "../../domain/notifications/notifiers/index.ts";
import { alertStatusOf, dedupKeyOf } from "../../domain/notifications/alert-status.ts";
import { normalizeSeverity } from "../../domain/notifications/severity.ts";
import { applyTemplates } from "../../domain/notifications/templates.ts";
import type { Vault } from "../../vault/vault.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";
import { type LinkSigning, linkSigning, messageLinks } from "./message-links.ts";
import { escalationLabel } from "./escalations.ts";
import { openSinkSecrets } from "./sink-secrets.ts";
import { subscriberJobs } from "../status-pages/subscriber-notices.ts";
import { eventJobs, SECRETS_UNOPENED, type SinkRow } from "../event-rules/event-jobs.ts";
import type { DeliveryJob } from "./delivery-job.ts";

export interface ClaimOptions {
  limit: number;
  leaseMs: number;
  vault: Vault;
  /**
   * At most this many deliveries of one sink in flight in this worker, counting `busy` (its sends still
   * running): a slow or failing receiver holds only its own slots, never the other sinks' (the burst
   * benchmark, issue 30).
   */
  perSink?: number;
  busy?: ReadonlyMap<number, number>;
  /**
   * Deliveries this worker sent whose attempts are not committed yet: never claimed again here, even when
   * their lease ran out meanwhile (a clock moved on), so this worker never sends one twice.
   */
  pending?: ReadonlySet<number>;
  /** Set when PUBLIC_URL is: the messages carry links to the console and a signed acknowledge link. */
  links?: LinkSigning | undefined;
  /**
   * The worker's opened sink secrets across claims, keyed by the sink and its sealed value (a changed secret
   * is a new key, never a stale answer): a burst's claims each opened the same few sinks again.
   */
  opened?: OpenedSecrets;
}

/** Opened sink secrets by `${sink id}:${sealed value}` (null: the vault could not open them). */
export type OpenedSecrets = Map<string, Promise<Record<string, string> | null>>;
/** Sinks are few; past this many entries the cache starts afresh rather than grow with edits. */
const OPENED_MAX = 256;

/** Claims up to `limit` due deliveries of enabled sinks, fairly across sinks, and answers what to send for each. */
export const claimDeliveries = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (
    s,
    { limit, leaseMs, vault, perSink = limit, busy = new Map(), pending = new Set(), links: configured, opened = new Map() }: ClaimOptions,
  ): Promise<{ jobs: DeliveryJob[]; failed: { id: number; error: string }[] }> => {
    const now = s.now.toISOString();
    const until = new Date(s.now.getTime() + leaseMs).toISOString();
    const busyJson = JSON.stringify(Object.fromEntries(busy));
    // Each enabled sink offers its oldest due deliveries up to its free slots (a LATERAL walk of the due
    // index per sink, locked there with SKIP LOCKED so several workers never claim one twice); the oldest
    // of those across sinks are taken. Ranking every due row with a window cost a scan of the whole
    // backlog per claim (docs/adr/0462-delivery-claim-per-sink.md). A status page's subscriber deliveries
    // (sink null, adr/0458) are offered the same way per page, whose lane in `busy` is the negative page id,
    // over their own partial index.
    const notPending = `{${[...pending].join(",")}}`;
    const rows = await queryRows<{
      id: number;
      alert_id: number | null;
      sink_id: number | null;
      attempt_count: number;
      escalation_step: number;
      escalation_round: number;
      subscriber_id: number | null;
      notice: SubscriberNoticeRow | null;
      event: Record<string, unknown> | null;
    }>(
      s.tx,
      sql`with offered as (
          select c.id, c.next_attempt_at
          from notification_sinks k
          cross join lateral (
            select d.id, d.next_attempt_at from notification_deliveries d
            where d.sink_id = k.id and d.state in ('pending', 'retrying') and d.next_attempt_at <= ${now}::timestamptz
              and (d.claimed_until is null or d.claimed_until < ${now}::timestamptz)
              and d.id <> all(${notPending}::bigint[])
            order by d.next_attempt_at, d.id
            limit greatest(0, ${perSink}::int - coalesce((${busyJson}::jsonb ->> k.id::text)::int, 0))
            for update of d skip locked) c
          where k.enabled
          union all
          select c.id, c.next_attempt_at
          from status_pages p
          cross join lateral (
            select d.id, d.next_attempt_at from notification_deliveries d
              join status_page_subscribers u on u.id = d.subscriber_id
            where d.sink_id is null and u.page_id = p.id and d.state in ('pending', 'retrying')
              and d.next_attempt_at <= ${now}::timestamptz
              and (d.claimed_until is null or d.claimed_until < ${now}::timestamptz)
              and d.id <> all(${notPending}::bigint[])
            order by d.next_attempt_at, d.id
            limit greatest(0, ${perSink}::int - coalesce((${busyJson}::jsonb ->> (-p.id)::text)::int, 0))
            for update of d skip locked) c),
        chosen as (select id from offered order by next_attempt_at, id limit ${limit})
      update notification_deliveries set claimed_until = ${until}::timestamptz, updated_at = ${now}::timestamptz
      where id in (select id from chosen)
      returning id::int as id, alert_id::int as alert_id, sink_id, attempt_count, escalation_step, escalation_round,
        subscriber_id, notice, event`,
    );
    if (rows.length === 0) return { jobs: [], failed: [] };
    const subscribed = rows.flatMap((d) =>
      d.subscriber_id != null && d.notice ? [{ ...d, subscriber_id: d.subscriber_id, notice: d.notice }] : [],
    );
    const claimed = rows.flatMap((d) =>
      d.alert_id != null && d.sink_id != null ? [{ ...d, alert_id: d.alert_id, sink_id: d.sink_id }] : [],
    );
    // An event rule's inventory change to a webhook sink (../event-rules/event-jobs.ts).
    const evented = rows.flatMap((d) => (d.event != null && d.sink_id != null ? [{ ...d, sink_id: d.sink_id, event: d.event }] : []));
    const sinkIds = [...new Set([...claimed, ...evented].map((d) => d.sink_id))];
    // One read of the alerts and of the sinks for the whole claim; each sink's secrets opened once. The
    // reads are issued together (postgres.js pipelines them on the transaction's connection): a claim
    // runs each time slots free, and its round trips bounded the send rate of a burst (adr/0462).
    const [links, alertRows, sinkRows] = await Promise.all([
      linkSigning(s.tx, configured),
      claimed.length === 0
        ? []
        : s.tx
            .select()
            .from(notificationAlerts)
            .where(inArray(notificationAlerts.id, [...new Set(claimed.map((d) => d.alert_id))])),
      sinkIds.length === 0 ? [] : s.tx.select().from(notificationSinks).where(inArray(notificationSinks.id, sinkIds)),
    ]);
    const sinks = new Map(sinkRows.map((k) => [k.id, k]));
    const secretsOf = (sink: SinkRow): Promise<Record<string, string> | null> => {
      const sealed = `${sink.id}:${sink.secrets ?? ""}`;
      if (!opened.has(sealed)) {
        if (opened.size >= OPENED_MAX) opened.clear();
        // A failure is not kept: the vault may open them on a later claim (a key restored meanwhile).
        opened.set(
          sealed,
          openSinkSecrets(vault, sink).catch(() => {
            opened.delete(sealed);
            return null;
          }),
        );
      }
      return opened.get(sealed)!;
    };
    // A status page's messages to its subscribers, and the event rules' changes, are made apart.
    const { jobs, failed } = await subscriberJobs(s.tx, subscribed, vault, links);
    await eventJobs(evented, sinks, secretsOf, jobs, failed);
    if (claimed.length === 0) return { jobs, failed };
    const alerts = new Map(alertRows.map((a) => [a.id, a]));
    // The incidents (for the acknowledge link: none once resolved) and the monitors (template fields:
    // ../../domain/notifications/templates.ts) of the claim, one read each.
    const incidentIds = links ? [...new Set([...alerts.values()].flatMap((a) => (a.incident_id != null ? [a.incident_id] : [])))] : [];
    const monitorIds = [...new Set([...alerts.values()].flatMap((a) => (a.monitor_id != null ? [a.monitor_id] : [])))];
    const [incidentRows, monitorRows] = await Promise.all([
      incidentIds.length === 0
        ? []
        : s.tx
            .select({ id: notificationAlerts.id, resolved_at: notificationAlerts.resolved_at })
            .from(notificationAlerts)
            .where(inArray(notificationAlerts.id, incidentIds)),
      monitorIds.length === 0
        ? []
        : s.tx
            .select({ id: monitors.id, name: monitors.name, check_type: monitors.check_type, host: monitors.host })
            .from(monitors)
            .where(inArray(monitors.id, monitorIds)),
    ]);
    const incidents = new Map(incidentRows.map((i) => [i.id, i]));
    const monitorsById = new Map(monitorRows.map((m) => [m.id, m]));
    for (const d of claimed) {
      const alert = alerts.get(d.alert_id);
      const sink = sinks.get(d.sink_id);
      if (!alert || !sink) continue;
      if (!isNotifierType(sink.provider_type)) {
        failed.push({ id: d.id, error: `Unknown provider type: ${sink.provider_type}` });
        continue;
      }
      const secrets = await secretsOf(sink);
      if (!secrets) {
        failed.push({ id: d.id, error: SECRETS_UNOPENED });
        continue;
      }
      const incident = alert.incident_id != null ? incidents.get(alert.incident_id) : undefined;
      const monitor = alert.monitor_id != null ? monitorsById.get(alert.monitor_id) : undefined;
      // An escalation step or a reminder says so ahead of the title, and has its own message id.
      const label = escalationLabel(d.escalation_step, d.escalation_round);
      jobs.push({
        delivery_id: d.id,
        attempt: d.attempt_count + 1,
        sink: { id: sink.id, provider_type: sink.provider_type, config: sink.provider_config, secrets },
        // The sink's title and body templates, if it has any, so that every provider sends them.
        message: applyTemplates(sink.provider_config, {
          id: `alert_${alert.id}_sink_${sink.id}${label ? `_step_${d.escalation_step}_round_${d.escalation_round}` : ""}`,
          kind: alert.kind,
          status: alertStatusOf(alert.kind),
          dedup_key: dedupKeyOf(alert),
          links: messageLinks(links, alert, incident, sink.id, s.now, s.ctx.random),
          severity: normalizeSeverity(alert.severity),
          title: label ? `[${label}] ${alert.title}` : alert.title,
          body: alert.body,
          occurred_at: alert.occurred_at.toISOString(),
          monitor: monitor ?? null,
          data: {
            alert_id: alert.id,
            monitor_id: alert.monitor_id,
            target_type: alert.target_type,
            target_id: alert.target_id,
            detail: alert.detail,
            ...(label ? { escalation: { step: d.escalation_step, round: d.escalation_round } } : {}),
          },
        }),
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

/**
 * Records attempts, several in one transaction (the worker group-commits them: shared/group-commit.ts),
 * answering each delivery's new state in order. A batch costs three statements whatever its size (lock
 * the deliveries, insert the attempts, update the deliveries): a statement per attempt held every send's
 * slot for the whole batch (the burst benchmark, issue 30).
 */
export const recordAttempts = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, records: AttemptRecord[]): Promise<{ state: string }[]> => {
    const states: { state: string }[] = new Array(records.length);
    // A delivery twice in one batch (a lease ran out while its attempt waited) is recorded in a second
    // pass, after its first attempt: each pass holds every delivery once.
    let rest = records.map((r, i) => ({ r, i }));
    while (rest.length > 0) {
      const seen = new Set<number>();
      const pass: typeof rest = [];
      const later: typeof rest = [];
      for (const p of rest) {
        if (seen.has(p.r.delivery_id)) later.push(p);
        else {
          seen.add(p.r.delivery_id);
          pass.push(p);
        }
      }
      const outcomes = await recordPass(
        s,
        pass.map((p) => p.r),
      );
      for (const [k, p] of pass.entries()) states[p.i] = outcomes[k]!;
      rest = later;
    }
    return states;
  },
);

async function recordPass(s: VerbScope, records: AttemptRecord[]): Promise<{ state: string }[]> {
  // Locked in id order, so two batches touching the same deliveries never wait on each other in a cycle.
  const locked = await s.tx
    .select({
      id: notificationDeliveries.id,
      sink_id: notificationDeliveries.sink_id,
      attempt_count: notificationDeliveries.attempt_count,
      max_attempts: notificationDeliveries.max_attempts,
      delivered_at: notificationDeliveries.delivered_at,
    })
    .from(notificationDeliveries)
    .where(
      inArray(
        notificationDeliveries.id,
        records.map((r) => r.delivery_id),
      ),
    )
    .orderBy(notificationDeliveries.id)
    .for("update");
  const byId = new Map(locked.map((d) => [d.id, d]));
  const attempts: (typeof notificationAttempts.$inferInsert)[] = [];
  const updates: {
    id: number;
    state: string;
    attempt_count: number;
    last_error: string | null;
    delivered_at: string | null;
    next_attempt_at: string;
  }[] = [];
  const states = records.map((r): { state: string } => {
    const d = byId.get(r.delivery_id);
    if (!d) return { state: "gone" };
    const attempt = d.attempt_count + 1;
    attempts.push({
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
    const deliveredAt = delivered ? s.now : d.delivered_at;
    updates.push({
      id: d.id,
      state,
      attempt_count: attempt,
      last_error: delivered ? null : r.error,
      delivered_at: deliveredAt ? deliveredAt.toISOString() : null,
      next_attempt_at: (state === "retrying" ? new Date(s.now.getTime() + backoffMs(r.backoff, attempt, draw)) : s.now).toISOString(),
    });
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
  if (updates.length === 0) return states;
  await s.tx.insert(notificationAttempts).values(attempts);
  await s.tx.execute(sql`update notification_deliveries d set state = v.state, attempt_count = v.attempt_count,
      claimed_until = null, last_error = v.last_error, delivered_at = v.delivered_at, next_attempt_at = v.next_attempt_at,
      updated_at = ${s.now.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
      as v(id bigint, state text, attempt_count int, last_error text, delivered_at timestamptz, next_attempt_at timestamptz)
    where d.id = v.id`);
  return states;
}
