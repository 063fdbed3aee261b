// Integrations (issue 14; spec/catalogue.tsv, group integrations; docs/architecture.md, API contracts): monitoring integrations (Uptime Kuma,
// the built-in monitors) with the monitors they report and those monitors' status changes; provider
// configs (the hypervisor `hv`, Proxmox VE, and `docker`) whose credentials are vault ciphertexts; and
// the record of each hypervisor discover run (GET /discovery/proxmox-runs). Rows a sync imports into the
// inventory are matched through external_refs (source `hv:<config id>` / `docker:<socket or url>`).
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, real, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";
import { hardware, services } from "./inventory.ts";
import { monitors } from "./monitors.ts";

export const integrations = pgTable(
  "integrations",
  {
    id: serial("id").primaryKey(),
    /** uptime_kuma | native */
    type: text("type").notNull(),
    name: text("name").notNull(),
    base_url: text("base_url"),
    /** Uptime Kuma's status page slug ("default" when null). */
    slug: text("slug"),
    /** Vault ciphertext of the API key (context `integrations.api_key:<id>`); never returned. */
    api_key: text("api_key"),
    sync_interval_s: integer("sync_interval_s").notNull().default(60),
    enabled: boolean("enabled").notNull().default(true),
    last_synced_at: tz("last_synced_at"),
    /** never | ok | error */
    sync_status: text("sync_status").notNull().default("never"),
    sync_error: text("sync_error"),
    /** When the scheduled sync should next run (last run + sync_interval_s). */
    next_sync_at: tz("next_sync_at"),
    ...timestamps,
  },
  (t) => [
    index("integrations_due_idx").on(t.next_sync_at).where(sql`enabled`),
    uniqueIndex("integrations_native_idx").on(t.type).where(sql`type = 'native'`),
  ],
);

export const integrationMonitors = pgTable(
  "integration_monitors",
  {
    id: serial("id").primaryKey(),
    integration_id: integer("integration_id")
      .notNull()
      .references(() => integrations.id, { onDelete: "cascade" }),
    /** The monitor's id at the source (Uptime Kuma's monitor id; `native-hw-<id>` / `native-svc-<id>`). */
    external_id: text("external_id").notNull(),
    name: text("name").notNull(),
    url: text("url"),
    /** up | down | pending | maintenance */
    status: text("status").notNull().default("pending"),
    uptime_7d: real("uptime_7d"),
    uptime_30d: real("uptime_30d"),
    last_checked_at: tz("last_checked_at"),
    avg_response_ms: real("avg_response_ms"),
    cert_expiry_days: integer("cert_expiry_days"),
    linked_hardware_id: integer("linked_hardware_id").references(() => hardware.id, { onDelete: "set null" }),
    linked_service_id: integer("linked_service_id").references(() => services.id, { onDelete: "set null" }),
    last_heartbeat_at: tz("last_heartbeat_at"),
    probe_type: text("probe_type"),
    probe_target: text("probe_target"),
    probe_port: integer("probe_port"),
    probe_interval_s: integer("probe_interval_s").notNull().default(60),
    is_native: boolean("is_native").notNull().default(false),
    /** A native monitor is one of our own monitors: this row mirrors it. */
    monitor_id: integer("monitor_id").references(() => monitors.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("integration_monitors_external_idx").on(t.integration_id, t.external_id),
    index("integration_monitors_hardware_idx").on(t.linked_hardware_id),
    index("integration_monitors_service_idx").on(t.linked_service_id),
    index("integration_monitors_monitor_idx").on(t.monitor_id),
  ],
);

/** A status change of an integration monitor, which an operator may annotate with a reason. */
export const integrationMonitorEvents = pgTable(
  "integration_monitor_events",
  {
    id: serial("id").primaryKey(),
    monitor_id: integer("monitor_id")
      .notNull()
      .references(() => integrationMonitors.id, { onDelete: "cascade" }),
    previous_status: text("previous_status"),
    new_status: text("new_status").notNull(),
    detected_at: tz("detected_at").notNull().defaultNow(),
    reason: text("reason"),
    reason_by: integer("reason_by"),
    reason_at: tz("reason_at"),
  },
  (t) => [index("integration_monitor_events_monitor_idx").on(t.monitor_id, t.detected_at)],
);

/** A provider config: the hypervisor (`hv`, Proxmox VE) or `docker`. */
export const integrationConfigs = pgTable(
  "integration_configs",
  {
    id: serial("id").primaryKey(),
    /** hv | docker */
    type: text("type").notNull(),
    name: text("name").notNull(),
    /** https://pve:8006, unix:///var/run/docker.sock, tcp://host:2376 */
    config_url: text("config_url").notNull(),
    /** snmp | ssh | ipmi | smtp | api_key | proxmox_api */
    credential_type: text("credential_type").notNull().default("api_key"),
    /** Vault ciphertext of the credential (context `integration_configs.credential:<id>`); never returned. */
    credential: text("credential"),
    cluster_name: text("cluster_name"),
    auto_sync: boolean("auto_sync").notNull().default(true),
    sync_interval_s: integer("sync_interval_s").notNull().default(300),
    verify_ssl: boolean("verify_ssl").notNull().default(true),
    /** A PEM CA bundle trusted for this endpoint (a homelab's own CA) when verify_ssl is on. */
    ca_cert: text("ca_cert"),
    extra_config: jsonb("extra_config").$type<Record<string, unknown>>().notNull().default({}),
    last_sync_at: tz("last_sync_at"),
    /** syncing | ok | error | partial | null */
    last_sync_status: text("last_sync_status"),
    last_sync_error: text("last_sync_error"),
    next_sync_at: tz("next_sync_at"),
    ...timestamps,
  },
  (t) => [index("integration_configs_due_idx").on(t.next_sync_at).where(sql`auto_sync`)],
);

/** One hypervisor discover run, as GET /discovery/proxmox-runs lists them. */
export const hvDiscoverRuns = pgTable(
  "hv_discover_runs",
  {
    id: serial("id").primaryKey(),
    integration_id: integer("integration_id").references(() => integrationConfigs.id, { onDelete: "set null" }),
    /** running | completed | failed */
    status: text("status").notNull().default("running"),
    /** manual | scheduled */
    trigger: text("trigger").notNull().default("manual"),
    triggered_by: text("triggered_by"),
    started_at: tz("started_at").notNull().defaultNow(),
    completed_at: tz("completed_at"),
    cluster_name: text("cluster_name"),
    nodes_imported: integer("nodes_imported").notNull().default(0),
    vms_imported: integer("vms_imported").notNull().default(0),
    cts_imported: integer("cts_imported").notNull().default(0),
    networks_imported: integer("networks_imported").notNull().default(0),
    storage_imported: integer("storage_imported").notNull().default(0),
    /** Inventory rows this run inserted or changed (0 when nothing changed at the source). */
    rows_written: integer("rows_written").notNull().default(0),
    /** What the previous run saw and this one did not: [{entity_type, entity_id, external_id, name}]. */
    vanished: jsonb("vanished").$type<Record<string, unknown>[]>().notNull().default([]),
    errors: jsonb("errors").$type<string[]>().notNull().default([]),
    audit_id: integer("audit_id"),
  },
  (t) => [index("hv_discover_runs_integration_idx").on(t.integration_id, t.id)],
);
