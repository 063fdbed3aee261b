// Notifications (issue 12 items 3 and 4; docs/architecture.md, API contracts; spec/catalogue.tsv, group notifications): sinks (where a message
// goes), routes (which alerts reach which sink), alerts (what happened, written in the transaction of the
// state change that caused it), deliveries (one per alert and sink, with their attempts).
//
// Alerts keep `monitor_id` without a foreign key: an alert is history and outlives its monitor.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";
import { environments, sites } from "./inventory.ts";
import { eventRules } from "./event-rules.ts";
import { statusPageSubscribers } from "./status-page-subscribers.ts";

/** notification_deliveries.notice: what a status page says to a subscriber (shared/verbs/status-pages/subscriber-notices.ts). */
export interface SubscriberNoticeRow {
  /** confirm: the double opt-in's request; notice: a message of the page (an incident, an update). */
  kind: "confirm" | "notice";
  subject: string;
  text: string;
  html?: string | undefined;
  /** The page or incident the message is about, on the public site. */
  url?: string | undefined;
}

export const notificationSinks = pgTable("notification_sinks", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  /** One of NOTIFIER_TYPES (shared/domain/notifications/notifiers/index.ts): webhook, slack, matrix, email, ... */
  provider_type: text("provider_type").notNull(),
  /** The provider's settings without its secrets. */
  provider_config: jsonb("provider_config").$type<Record<string, unknown>>().notNull().default({}),
  /** Vault ciphertext of a JSON object {key: secret} (webhook_url, secret, token, ...); null when none. */
  secrets: text("secrets"),
  enabled: boolean("enabled").notNull().default(true),
  ...timestamps,
});

/** Who is paged, and when, while an incident stays open and unacknowledged (docs/adr/0448-escalation-policies.md). */
export const notificationEscalationPolicies = pgTable("notification_escalation_policies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  /** In order: wait `after_minutes` (from the dispatch, then from the step before), then notify `sink_ids`. */
  steps: jsonb("steps").$type<{ after_minutes: number; sink_ids: number[] }[]>().notNull(),
  /** How many times the whole sequence runs again after its first pass. */
  repeat: integer("repeat").notNull().default(0),
  /** Re-notify the route's own sinks every N minutes while the incident is open and unacknowledged. */
  renotify_every_minutes: integer("renotify_every_minutes"),
  ...timestamps,
});

/** A route's weekly quiet hours (docs/adr/0450-quiet-hours-and-digests.md). */
export interface QuietHours {
  timezone: string;
  windows: { days: string[]; start: string; end: string }[];
  /** Alerts below this severity are held for the digest; critical ones always pass. */
  hold_below: "warning" | "critical";
}

export const notificationRoutes = pgTable(
  "notification_routes",
  {
    id: serial("id").primaryKey(),
    sink_id: integer("sink_id")
      .notNull()
      .references(() => notificationSinks.id, { onDelete: "cascade" }),
    /** A minimum: * | info | warning | critical. */
    alert_severity: text("alert_severity").notNull().default("*"),
    /** Alert kinds admitted (`monitor.down`, `monitor.*`); empty admits every kind. */
    event_kinds: text("event_kinds").array().notNull().default(sql`'{}'::text[]`),
    /** Inventory scope: null admits any; set, the alert's target must lie in it. */
    site_id: integer("site_id").references(() => sites.id, { onDelete: "cascade" }),
    environment_id: integer("environment_id").references(() => environments.id, { onDelete: "cascade" }),
    tag: text("tag"),
    enabled: boolean("enabled").notNull().default(true),
    /** Paged further while the incident this route sent stays open and unacknowledged. */
    escalation_policy_id: integer("escalation_policy_id").references(() => notificationEscalationPolicies.id, { onDelete: "restrict" }),
    quiet_hours: jsonb("quiet_hours").$type<QuietHours>(),
    ...timestamps,
  },
  (t) => [index("notification_routes_sink_idx").on(t.sink_id), index("notification_routes_policy_idx").on(t.escalation_policy_id)],
);

export const notificationAlerts = pgTable(
  "notification_alerts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    severity: text("severity").notNull(),
    monitor_id: integer("monitor_id"),
    target_type: text("target_type"),
    target_id: integer("target_id"),
    title: text("title").notNull(),
    body: text("body").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    occurred_at: tz("occurred_at").notNull(),
    /**
     * waiting (inside the grouping delay) | dispatched (deliveries made) | suppressed (folded into the
     * alert of `suppressed_by`) | debounced (a flapping monitor) | unrouted (no route matched) | in_hand
     * (a later failure of an acknowledged incident, not sent: docs/adr/0447-acknowledgement.md)
     */
    state: text("state").notNull().default("waiting"),
    /** The root cause's alert this one was folded into. */
    suppressed_by: bigint("suppressed_by", { mode: "number" }),
    /**
     * What the alert is about, the same for a firing alert and its recovery (`monitor:7`,
     * `rule:3:hardware:12`; domain/notifications/alert-status.ts); null for an event, which has no recovery.
     */
    subject: text("subject"),
    /**
     * The incident this alert belongs to: the id of the firing alert that opened it (its own id when it
     * did). A recovery carries the incident it ended. Null for an event. docs/adr/0442-alert-lifecycle.md.
     */
    incident_id: bigint("incident_id", { mode: "number" }),
    /** On the opening alert: when a recovery ended the incident. */
    resolved_at: tz("resolved_at"),
    /** On the opening alert: who acknowledged the incident and when (cleared by an un-acknowledge). */
    acknowledged_at: tz("acknowledged_at"),
    acknowledged_by: text("acknowledged_by"),
    /** On the opening alert: what the person who acknowledged it said (docs/adr/0447-acknowledgement.md). */
    acknowledged_note: text("acknowledged_note"),
    /** Only for `notification.test`: the one sink the test goes to, routes aside. */
    test_sink_id: integer("test_sink_id").references(() => notificationSinks.id, { onDelete: "cascade" }),
    dispatched_at: tz("dispatched_at"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("notification_alerts_waiting_idx").on(t.occurred_at).where(sql`state = 'waiting'`),
    index("notification_alerts_monitor_idx").on(t.monitor_id, t.occurred_at),
    index("notification_alerts_suppressed_by_idx").on(t.suppressed_by),
    // The open incident of a subject, found by each new alert about it.
    index("notification_alerts_open_incident_idx").on(t.subject).where(sql`incident_id = id and resolved_at is null`),
    index("notification_alerts_incident_idx").on(t.incident_id),
  ],
);

export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // An alert to a sink, or (both null) a status page's message to one subscriber: subscriber_id and
    // notice set (docs/adr/0458-status-page-subscribers.md). The check below keeps exactly one of the two.
    alert_id: bigint("alert_id", { mode: "number" }).references(() => notificationAlerts.id, { onDelete: "cascade" }),
    sink_id: integer("sink_id").references(() => notificationSinks.id, { onDelete: "cascade" }),
    subscriber_id: integer("subscriber_id").references(() => statusPageSubscribers.id, { onDelete: "cascade" }),
    /** A subscriber's message as queued: its subject and text (and html), rendered per subscriber when sent. */
    notice: jsonb("notice").$type<SubscriberNoticeRow>(),
    /**
     * An inventory change to a webhook sink (alert null, sink set: docs/adr/0488-inventory-event-rules.md):
     * the body as sent, made in the transaction of the change; the rule that queued it.
     */
    event: jsonb("event").$type<Record<string, unknown>>(),
    event_rule_id: integer("event_rule_id").references(() => eventRules.id, { onDelete: "set null" }),
    /**
     * pending | retrying | delivered | dead, or held (quiet hours: until `next_attempt_at`, the end of the
     * quiet period) | digested (sent inside a digest instead)
     */
    state: text("state").notNull().default("pending"),
    /** 0: the route's own send; n: step n of the escalation policy (docs/adr/0448-escalation-policies.md). */
    escalation_step: integer("escalation_step").notNull().default(0),
    /** The pass of the policy's sequence (0: the first); with step 0, the n-th re-notification. */
    escalation_round: integer("escalation_round").notNull().default(0),
    attempt_count: integer("attempt_count").notNull().default(0),
    /** Attempts allowed before the dead letter (a replay grants a fresh budget). */
    max_attempts: integer("max_attempts").notNull(),
    next_attempt_at: tz("next_attempt_at").notNull().defaultNow(),
    /** A worker's claim: until then no other worker takes it (a worker that died loses only the lease). */
    claimed_until: tz("claimed_until"),
    last_error: text("last_error"),
    delivered_at: tz("delivered_at"),
    replayed_at: tz("replayed_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("notification_deliveries_alert_sink_idx").on(t.alert_id, t.sink_id, t.escalation_step, t.escalation_round),
    // The claim walks each sink's due deliveries oldest first (docs/adr/0462-delivery-claim-per-sink.md).
    index("notification_deliveries_sink_due_idx").on(t.sink_id, t.next_attempt_at, t.id).where(sql`state in ('pending', 'retrying')`),
    index("notification_deliveries_sink_idx").on(t.sink_id),
    index("notification_deliveries_held_idx").on(t.next_attempt_at).where(sql`state = 'held'`),
    index("notification_deliveries_subscriber_idx").on(t.subscriber_id).where(sql`subscriber_id is not null`),
    // The claim's walk of each status page's due subscriber deliveries (sink null: adr/0458, adr/0462).
    index("notification_deliveries_subscriber_due_idx")
      .on(t.next_attempt_at, t.id)
      .where(sql`sink_id is null and state in ('pending', 'retrying')`),
    // The event deliveries of a rule, newest first (GET /event-rules/deliveries).
    index("notification_deliveries_event_rule_idx").on(t.event_rule_id, t.id).where(sql`event is not null`),
    check(
      "notification_deliveries_alert_or_subscriber",
      sql`(alert_id is not null and sink_id is not null and subscriber_id is null and notice is null and event is null) or (alert_id is null and sink_id is null and subscriber_id is not null and notice is not null and event is null) or (alert_id is null and sink_id is not null and subscriber_id is null and notice is null and event is not null)`,
    ),
  ],
);

/**
 * An incident being escalated: one per opening alert and policy, walked by the escalation job
 * (shared/verbs/notifications/escalations.ts) until the incident is resolved or acknowledged.
 */
export const notificationEscalations = pgTable(
  "notification_escalations",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    alert_id: bigint("alert_id", { mode: "number" })
      .notNull()
      .references(() => notificationAlerts.id, { onDelete: "cascade" }),
    policy_id: integer("policy_id")
      .notNull()
      .references(() => notificationEscalationPolicies.id, { onDelete: "cascade" }),
    /** The sinks of the routes that sent the alert: the ones a re-notification goes to. */
    route_sink_ids: integer("route_sink_ids").array().notNull(),
    /** active | done (steps run out, nothing to re-notify) | resolved | acknowledged */
    state: text("state").notNull().default("active"),
    /** The step due next (1-based) and its pass; null once the steps have run out. */
    next_step: integer("next_step"),
    next_round: integer("next_round").notNull().default(0),
    next_step_at: tz("next_step_at"),
    renotify_count: integer("renotify_count").notNull().default(0),
    next_renotify_at: tz("next_renotify_at"),
    /** The earlier of the two: what the job's index orders by. */
    due_at: tz("due_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("notification_escalations_alert_policy_idx").on(t.alert_id, t.policy_id),
    index("notification_escalations_due_idx").on(t.due_at).where(sql`state = 'active'`),
  ],
);

export const notificationAttempts = pgTable(
  "notification_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    delivery_id: bigint("delivery_id", { mode: "number" })
      .notNull()
      .references(() => notificationDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** delivered | failed | timeout */
    outcome: text("outcome").notNull(),
    http_status: integer("http_status"),
    error: text("error"),
    duration_ms: integer("duration_ms").notNull(),
    started_at: tz("started_at").notNull(),
  },
  (t) => [index("notification_attempts_delivery_idx").on(t.delivery_id, t.attempt)],
);

/**
 * The nonces of acknowledgement links already used (shared/domain/notifications/ack-token.ts): a link
 * acknowledges once. A row outlives its link's expiry only until the next use prunes it.
 */
export const notificationAckNonces = pgTable(
  "notification_ack_nonces",
  {
    nonce: text("nonce").primaryKey(),
    incident_id: bigint("incident_id", { mode: "number" }).notNull(),
    used_at: tz("used_at").notNull(),
  },
  (t) => [index("notification_ack_nonces_used_idx").on(t.used_at)],
);
