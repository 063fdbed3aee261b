// Telemetry, status history, the scheduler's run records and the intelligence tables (spec 2.2-2.8,
// 3.2, 6.7). Live metrics keep a `source` (push, snmp, an integration's name, hourly_agg).
import { sql } from "drizzle-orm";
import { bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, real, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { Classification } from "../../domain/classification.ts";
import { tz } from "./columns.ts";
import { hardware } from "./inventory.ts";

export const hardwareLiveMetrics = pgTable(
  "hardware_live_metrics",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    hardware_id: integer("hardware_id")
      .notNull()
      .references(() => hardware.id, { onDelete: "cascade" }),
    ts: tz("ts").notNull(),
    cpu_pct: real("cpu_pct"),
    mem_pct: real("mem_pct"),
    disk_pct: real("disk_pct"),
    temp_c: real("temp_c"),
    net_rx_bps: doublePrecision("net_rx_bps"),
    net_tx_bps: doublePrecision("net_tx_bps"),
    uptime_s: doublePrecision("uptime_s"),
    /** up | down when the sample reports reachability; null otherwise. */
    status: text("status"),
    /** push | snmp | hourly_agg | <integration name> */
    source: text("source").notNull().default("push"),
    /** Raw samples averaged into an hourly_agg row. */
    sample_count: integer("sample_count"),
  },
  (t) => [index("hlm_hw_ts_idx").on(t.hardware_id, t.ts), index("hlm_ts_idx").on(t.ts)],
);

export const agentHostSamples = pgTable(
  "agent_host_samples",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    agent_id: integer("agent_id").notNull(),
    hardware_id: integer("hardware_id").references(() => hardware.id, { onDelete: "set null" }),
    ts: tz("ts").notNull(),
    cpu_pct: real("cpu_pct"),
    mem_pct: real("mem_pct"),
    disk_pct: real("disk_pct"),
    load_1: real("load_1"),
    net_rx_bps: doublePrecision("net_rx_bps"),
    net_tx_bps: doublePrecision("net_tx_bps"),
    swap_pct: real("swap_pct"),
    max_temp_c: real("max_temp_c"),
    uptime_s: doublePrecision("uptime_s"),
    /** healthy | degraded, as the agent reported it. */
    status: text("status"),
    /** The agent's sample id (32 hex): a frame sent again after a reconnect is stored once. */
    sample_id: text("sample_id"),
  },
  (t) => [
    index("ahs_agent_ts_idx").on(t.agent_id, t.ts),
    index("ahs_ts_idx").on(t.ts),
    uniqueIndex("ahs_agent_sample_idx").on(t.agent_id, t.sample_id),
  ],
);

/** Agent samples collapsed to hourly averages by retention (spec 6.7). */
export const agentHostSamplesHourly = pgTable(
  "agent_host_samples_hourly",
  {
    agent_id: integer("agent_id").notNull(),
    hour: tz("hour").notNull(),
    hardware_id: integer("hardware_id").references(() => hardware.id, { onDelete: "set null" }),
    cpu_pct: real("cpu_pct"),
    mem_pct: real("mem_pct"),
    disk_pct: real("disk_pct"),
    load_1: real("load_1"),
    net_rx_bps: doublePrecision("net_rx_bps"),
    net_tx_bps: doublePrecision("net_tx_bps"),
    sample_count: integer("sample_count").notNull(),
  },
  (t) => [uniqueIndex("ahsh_agent_hour_idx").on(t.agent_id, t.hour), index("ahsh_hour_idx").on(t.hour)],
);

/** The SNMPv3 settings of a poll that are not secret (the keys are sealed apart, in `usm_keys`). */
export interface TelemetryUsm {
  username: string;
  security_level: string | null;
  auth_protocol: string | null;
  priv_protocol: string | null;
}

/** How the sidecar polls a node (SNMP first). The community is a secret: written, never returned. */
export const telemetryConfigs = pgTable("telemetry_configs", {
  hardware_id: integer("hardware_id")
    .primaryKey()
    .references(() => hardware.id, { onDelete: "cascade" }),
  protocol: text("protocol").notNull().default("snmp"),
  enabled: boolean("enabled").notNull().default(true),
  host: text("host"),
  port: integer("port"),
  snmp_version: text("snmp_version"),
  community: text("community"),
  /** SNMPv3 (docs/adr/0489): the user name, security level and protocols; null for v1/v2c. */
  usm: jsonb("usm").$type<TelemetryUsm>(),
  /** Vault ciphertext of the v3 keys as JSON {auth_key?, priv_key?} (context `telemetry_configs.usm_keys:<id>`); never returned. */
  usm_keys: text("usm_keys"),
  interval_s: integer("interval_s").notNull().default(60),
  options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
  last_polled_at: tz("last_polled_at"),
  last_error: text("last_error"),
  updated_at: tz("updated_at").notNull().defaultNow(),
});

export const statusHistory = pgTable(
  "status_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    entity_type: text("entity_type").notNull(),
    entity_id: integer("entity_id").notNull(),
    status: text("status").notNull(),
    previous_status: text("previous_status"),
    /** info | warning | critical */
    severity: text("severity").notNull().default("info"),
    message: text("message"),
    metrics: jsonb("metrics"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("status_history_entity_idx").on(t.entity_type, t.entity_id, t.created_at)],
);

export const capacityForecasts = pgTable(
  "capacity_forecasts",
  {
    id: serial("id").primaryKey(),
    hardware_id: integer("hardware_id")
      .notNull()
      .references(() => hardware.id, { onDelete: "cascade" }),
    metric: text("metric").notNull(),
    slope_per_day: doublePrecision("slope_per_day").notNull(),
    current_value: doublePrecision("current_value").notNull(),
    projected_full_at: tz("projected_full_at"),
    warning_threshold_days: integer("warning_threshold_days").notNull().default(30),
    evaluated_at: tz("evaluated_at").notNull(),
  },
  (t) => [uniqueIndex("capacity_forecasts_hw_metric_idx").on(t.hardware_id, t.metric)],
);

export const resourceRecommendations = pgTable(
  "resource_recommendations",
  {
    id: serial("id").primaryKey(),
    asset_type: text("asset_type").notNull(),
    asset_id: integer("asset_id").notNull(),
    classification: text("classification").$type<Classification>().notNull(),
    cpu_avg_pct: doublePrecision("cpu_avg_pct").notNull(),
    cpu_peak_pct: doublePrecision("cpu_peak_pct").notNull(),
    mem_avg_pct: doublePrecision("mem_avg_pct").notNull(),
    recommendation: text("recommendation").notNull(),
    evaluated_at: tz("evaluated_at").notNull(),
  },
  (t) => [
    uniqueIndex("resource_recommendations_asset_idx").on(t.asset_type, t.asset_id),
    index("resource_recommendations_eval_idx").on(t.evaluated_at),
  ],
);

export const flapIncidents = pgTable(
  "flap_incidents",
  {
    id: serial("id").primaryKey(),
    hardware_id: integer("hardware_id")
      .notNull()
      .references(() => hardware.id, { onDelete: "cascade" }),
    /** active | resolved */
    status: text("status").notNull(),
    transition_count: integer("transition_count").notNull(),
    window_start: tz("window_start").notNull(),
    window_end: tz("window_end").notNull(),
    started_at: tz("started_at").notNull(),
    resolved_at: tz("resolved_at"),
    last_evaluated_at: tz("last_evaluated_at").notNull(),
  },
  (t) => [uniqueIndex("flap_incidents_one_active_idx").on(t.hardware_id).where(sql`${t.status} = 'active'`)],
);

/** Every run of a scheduled job: visible to admins at GET /admin/jobs. */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    job: text("job").notNull(),
    /** schedule | manual */
    trigger: text("trigger").notNull(),
    started_at: tz("started_at").notNull(),
    finished_at: tz("finished_at"),
    /** running | success | failed | skipped */
    outcome: text("outcome").notNull(),
    rows_touched: integer("rows_touched"),
    detail: jsonb("detail"),
    error: text("error"),
  },
  (t) => [index("job_runs_job_idx").on(t.job, t.started_at)],
);
