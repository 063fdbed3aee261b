// Monitors (issue 12; spec/catalogue.tsv, group monitors; docs/architecture.md, API contracts): the checks, what they recorded, the
// per-minute uptime buckets and their daily rollup, and maintenance windows. Sized for 10,000 monitors at
// a 60 s interval writing every result (167 results/s): one wide sample row per result rather than one
// row per metric, and counters upserted into a minute bucket, so that a year of uptime is ~365 rows.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  uniqueIndex,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  bigserial,
  text,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { type CheckType, DEFAULT_INTERVAL_SECS } from "../../domain/monitors/check-types.ts";
import { agents } from "./agents.ts";
import { timestamps, tz } from "./columns.ts";
import { users } from "./identity.ts";
import { sites } from "./inventory.ts";

export const monitors = pgTable(
  "monitors",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** icmp | tcp | http | dns; fixed at create. */
    check_type: text("check_type").$type<CheckType>().notNull(),
    host: text("host").notNull(),
    /** The per-type config as the caller sent it (only the keys sent), secrets taken out. */
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Vault ciphertext of the config's secrets as JSON (`{password?, token?, headers?: {name: value}}`),
     * sealed with context `monitors.secret_config:<id>`; null when the monitor has none.
     */
    secret_config: text("secret_config"),
    interval_secs: integer("interval_secs").notNull().default(DEFAULT_INTERVAL_SECS),
    max_retries: integer("max_retries").notNull().default(0),
    retry_interval_secs: integer("retry_interval_secs"),
    enabled: boolean("enabled").notNull().default(true),
    /** hardware | compute_unit | external_node | service | ip */
    target_type: text("target_type"),
    target_id: integer("target_id"),
    probe_agent_id: integer("probe_agent_id").references(() => agents.id, { onDelete: "set null" }),
    /**
     * Multi-vantage checks (docs/adr/0441): the agents that run the check too; empty for a single-point
     * monitor. No foreign key (an array): deleting an agent removes it from these lists (deleteAgent).
     */
    vantage_agent_ids: integer("vantage_agent_ids").array().notNull().default(sql`'{}'::integer[]`),
    /** Whether the sidecar is one of the vantage points (only read when vantage_agent_ids is not empty). */
    vantage_sidecar: boolean("vantage_sidecar").notNull().default(true),
    /** Q: down when at least this many points agree; null: a majority of the points. */
    quorum: integer("quorum"),
    /** The group monitor this one belongs to (at most one; docs/adr/0440); its state follows its members'. */
    group_id: integer("group_id").references((): AnyPgColumn => monitors.id, { onDelete: "set null" }),
    /** up | pending | degraded | down | maintenance (the last status). */
    status: text("status").notNull().default("pending"),
    /** Consecutive failures (MonitorRead `retries`). */
    retries: integer("retries").notNull().default(0),
    last_polled_at: tz("last_polled_at"),
    last_status_change_at: tz("last_status_change_at"),
    /** The latest result's latency and message, kept here so lists need no sample lookup. */
    last_latency_ms: real("last_latency_ms"),
    last_msg: text("last_msg"),
    /** When the runner should check next; "check now" and resume set it to now. */
    next_check_at: tz("next_check_at").notNull().defaultNow(),
    /** The sidecar that claimed the current check and when (cleared when its result is recorded). */
    claimed_by: text("claimed_by"),
    claimed_at: tz("claimed_at"),
    /** ready | queued | running | unavailable | stale (agent-probed monitors). */
    probe_execution_status: text("probe_execution_status"),
    probe_execution_reason: text("probe_execution_reason"),
    probe_last_dispatched_at: tz("probe_last_dispatched_at"),
    probe_last_result_at: tz("probe_last_result_at"),
    /**
     * A push monitor's token as the SHA-256 (hex) of its text: the token itself is shown once (create,
     * rotate) and never stored; a push finds its monitor by this hash (docs/adr/0439).
     */
    push_token_hash: text("push_token_hash"),
    /**
     * The push monitor's rate limit, counted in the pushes' own transaction (no store round trip or
     * commit of its own on the push path): pushes accepted in the minute starting at push_window_start.
     */
    push_window_start: tz("push_window_start"),
    push_window_hits: integer("push_window_hits").notNull().default(0),
    /** Whether its SVG badges are served to anyone, without a credential (docs/adr/0455); off by default. */
    badge_public: boolean("badge_public").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("monitors_push_token_hash_idx").on(t.push_token_hash).where(sql`push_token_hash is not null`),
    // The runner's claim: `where enabled and next_check_at <= now order by next_check_at ... skip locked`.
    index("monitors_due_idx").on(t.next_check_at).where(sql`enabled`),
    index("monitors_target_idx").on(t.target_type, t.target_id),
    index("monitors_probe_agent_idx").on(t.probe_agent_id),
    index("monitors_name_idx").on(t.name, t.id),
    // A group's members: its evaluation tallies them, and `?group_id=` lists them.
    index("monitors_group_idx").on(t.group_id).where(sql`group_id is not null`),
  ],
);

/** State changes and user actions (event_type up | down | pending | paused | resumed), newest first on read. */
export const monitorEvents = pgTable(
  "monitor_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    monitor_id: integer("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    event_type: text("event_type").notNull(),
    status_from: text("status_from"),
    status_to: text("status_to"),
    msg: text("msg"),
    /** Seconds spent in the previous state. */
    duration_secs: integer("duration_secs"),
    /** The alert (notifications) this event's notification was folded into; null when sent on its own. */
    suppressed_by: bigint("suppressed_by", { mode: "number" }),
    actor_user_id: integer("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    detail: jsonb("detail").$type<Record<string, unknown> | null>(),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("monitor_events_monitor_idx").on(t.monitor_id, t.id)],
);

/**
 * One row per check result. The named metrics are columns (history reads one); any other numeric metric a
 * check reports (icmp latency_min_ms, latency_max_ms, jitter_ms, ...) goes into `extra`.
 */
export const monitorSamples = pgTable(
  "monitor_samples",
  {
    monitor_id: integer("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    ts: tz("ts").notNull(),
    /** The `avail` metric: 1 up, 0 down. */
    avail: boolean("avail").notNull(),
    latency_ms: real("latency_ms"),
    packet_loss_pct: real("packet_loss_pct"),
    http_status: integer("http_status"),
    cert_days_remaining: integer("cert_days_remaining"),
    extra: jsonb("extra").$type<Record<string, number>>(),
    msg: text("msg"),
    /** server | agent */
    source: text("source").notNull().default("server"),
  },
  // BRIN on ts: rows arrive in time order, and retention deletes by age at a tiny write cost.
  (t) => [index("monitor_samples_monitor_ts_idx").on(t.monitor_id, t.ts), index("monitor_samples_ts_brin").using("brin", t.ts)],
);

/**
 * Each vantage point's last result of a multi-vantage monitor (docs/adr/0441): `vantage` is 'sidecar' or
 * the agent's id as text. The quorum judgement reads these rows; the console shows them.
 */
export const monitorVantageResults = pgTable(
  "monitor_vantage_results",
  {
    monitor_id: integer("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    vantage: text("vantage").notNull(),
    /** up | down; null until the point's first result. */
    status: text("status"),
    msg: text("msg"),
    latency_ms: real("latency_ms"),
    checked_at: tz("checked_at"),
    /** queued | unavailable (agents): the last dispatch, and the agent's refusal reason. */
    dispatch_status: text("dispatch_status"),
    dispatch_reason: text("dispatch_reason"),
    dispatched_at: tz("dispatched_at"),
  },
  (t) => [primaryKey({ columns: [t.monitor_id, t.vantage] })],
);

/** Per-minute uptime counters, upserted by every result: `up` of `total` checks in that minute. */
export const monitorUptimeMinutes = pgTable(
  "monitor_uptime_minutes",
  {
    monitor_id: integer("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    /** The minute's start (UTC). */
    minute: tz("minute").notNull(),
    up: integer("up").notNull().default(0),
    total: integer("total").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.monitor_id, t.minute] }), index("monitor_uptime_minutes_minute_brin").using("brin", t.minute)],
);

/**
 * Minute buckets rolled up per UTC day by the retention job: `up` of `total` checks, over `minutes`
 * observed minutes. Uptime past the minute buckets' retention (365 d, total) reads these.
 */
export const monitorUptimeDaily = pgTable(
  "monitor_uptime_daily",
  {
    monitor_id: integer("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    up: integer("up").notNull().default(0),
    total: integer("total").notNull().default(0),
    minutes: integer("minutes").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.monitor_id, t.day] })],
);

/**
 * A maintenance window: one-off (`starts_at`..`ends_at`) or recurring (`cron` in `timezone`, each
 * occurrence lasting `duration_minutes`). It covers the monitors listed in `monitor_ids` plus every monitor
 * of the target, site or tag given; covered monitors report `maintenance` and are silenced.
 */
export const maintenanceWindows = pgTable(
  "maintenance_windows",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    enabled: boolean("enabled").notNull().default(true),
    /** one_off | recurring */
    kind: text("kind").notNull(),
    starts_at: tz("starts_at"),
    ends_at: tz("ends_at"),
    cron: text("cron"),
    duration_minutes: integer("duration_minutes"),
    timezone: text("timezone"),
    monitor_ids: integer("monitor_ids").array().notNull().default(sql`'{}'::integer[]`),
    target_type: text("target_type"),
    target_id: integer("target_id"),
    site_id: integer("site_id").references(() => sites.id, { onDelete: "set null" }),
    tag: text("tag"),
    ...timestamps,
  },
  (t) => [index("maintenance_windows_enabled_idx").on(t.enabled)],
);
