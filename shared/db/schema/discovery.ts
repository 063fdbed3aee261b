// Discovery (issue 13; spec/catalogue.tsv, group discovery; docs/architecture.md, API contracts): profiles that schedule scans, the scan
// jobs (run by the sidecar's discovery worker or dispatched to an agent), what each found per host, the
// job's log, and the LLDP neighbours an enrichment job read. Merges write the inventory tables and keep
// their undo in the audit entry they record (diff.undo), so there is no merge table.
import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, real, serial, text } from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { timestamps, tz } from "./columns.ts";
import { hardware, networks } from "./inventory.ts";

/** One open port as a scan saw it; `open_ports` of a result is an array of these. A type, not an
 * interface, so it fits the loose response schemas (an interface has no implicit index signature). */
export type OpenPortRow = {
  port: number;
  protocol: string;
  service?: string | null;
  banner?: string | null;
  http_title?: string | null;
  /** The Server header of an HTTP answer on the port (UPnP stacks and appliances name themselves there). */
  server?: string | null;
  tls?: { subject: string | null; issuer: string | null; not_after: string | null; san: string[] } | null;
};

export const discoveryProfiles = pgTable(
  "discovery_profiles",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** The reference's single target; `targets` holds the full list (CIDRs, ranges, addresses). */
    cidr: text("cidr"),
    targets: jsonb("targets").$type<string[]>().notNull().default([]),
    exclude: jsonb("exclude").$type<string[]>().notNull().default([]),
    scan_agent_id: integer("scan_agent_id").references(() => agents.id, { onDelete: "restrict" }),
    /** "system" for profiles the product made itself; null for an operator's. */
    managed_by: text("managed_by"),
    paused_at: tz("paused_at"),
    vlan_ids: jsonb("vlan_ids").$type<number[]>().notNull().default([]),
    scan_types: jsonb("scan_types").$type<string[]>().notNull().default([]),
    /** Explicit TCP ports; empty means the preset (or the default preset). */
    tcp_ports: jsonb("tcp_ports").$type<number[]>().notNull().default([]),
    ports_preset: text("ports_preset"),
    nmap_arguments: text("nmap_arguments"),
    /** Vault ciphertext of the SNMP community (context `discovery_profiles.snmp_community:<id>`); never returned. */
    snmp_community: text("snmp_community"),
    snmp_version: text("snmp_version").notNull().default("2c"),
    snmp_port: integer("snmp_port").notNull().default(161),
    docker_network_types: jsonb("docker_network_types").$type<string[]>().notNull().default(["bridge"]),
    docker_port_scan: boolean("docker_port_scan").notNull().default(false),
    docker_socket_path: text("docker_socket_path").notNull().default("/var/run/docker.sock"),
    /** 5-field crontab; null = run only on demand. */
    schedule_cron: text("schedule_cron"),
    enabled: boolean("enabled").notNull().default(true),
    last_run: tz("last_run"),
    /** When the scheduler should start the next run (computed from schedule_cron by croner). */
    next_run_at: tz("next_run_at"),
    ...timestamps,
  },
  (t) => [
    index("discovery_profiles_due_idx").on(t.next_run_at).where(sql`enabled and paused_at is null`),
    index("discovery_profiles_agent_idx").on(t.scan_agent_id),
  ],
);

export const scanJobs = pgTable(
  "scan_jobs",
  {
    id: serial("id").primaryKey(),
    profile_id: integer("profile_id").references(() => discoveryProfiles.id, { onDelete: "set null" }),
    scan_agent_id: integer("scan_agent_id").references(() => agents.id, { onDelete: "set null" }),
    /** manual | prober | scheduled | listener_triggered | agent */
    source_type: text("source_type").notNull().default("manual"),
    label: text("label"),
    target_cidr: text("target_cidr"),
    targets: jsonb("targets").$type<string[]>().notNull().default([]),
    exclude: jsonb("exclude").$type<string[]>().notNull().default([]),
    vlan_ids: jsonb("vlan_ids").$type<number[]>().notNull().default([]),
    network_ids: jsonb("network_ids").$type<number[]>().notNull().default([]),
    scan_types: jsonb("scan_types").$type<string[]>().notNull().default([]),
    tcp_ports: jsonb("tcp_ports").$type<number[]>().notNull().default([]),
    /** Run options: {host_timeout_ms, max_concurrent_hosts, nmap_arguments, snmp_port, snmp_version, docker_*, hardware_ids (lldp), ...}. */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    /** Vault ciphertext of the job's SNMP community (context `scan_jobs.snmp_community:<id>`), copied from the request or profile. */
    snmp_community: text("snmp_community"),
    /** queued | running | completed | failed | cancelled */
    status: text("status").notNull().default("queued"),
    started_at: tz("started_at"),
    completed_at: tz("completed_at"),
    addresses_total: integer("addresses_total").notNull().default(0),
    addresses_done: integer("addresses_done").notNull().default(0),
    hosts_found: integer("hosts_found").notNull().default(0),
    hosts_new: integer("hosts_new").notNull().default(0),
    hosts_updated: integer("hosts_updated").notNull().default(0),
    hosts_conflict: integer("hosts_conflict").notNull().default(0),
    error_text: text("error_text"),
    /** A short machine reason: waiting_for_agent, cancelled_by_user, agent_offline, timeout, tool_missing, ... */
    error_reason: text("error_reason"),
    /** Display name of who started it, or "api-token", or "scheduler". */
    triggered_by: text("triggered_by"),
    triggered_by_user_id: integer("triggered_by_user_id"),
    progress_phase: text("progress_phase"),
    progress_message: text("progress_message"),
    /** The sidecar instance running it (server jobs) and when it claimed it. */
    claimed_by: text("claimed_by"),
    claimed_at: tz("claimed_at"),
    /** Agent jobs: the dispatch id (32 hex) sent in discovery.request, and when it was sent. */
    dispatch_id: text("dispatch_id"),
    dispatched_at: tz("dispatched_at"),
    ...timestamps,
  },
  (t) => [
    index("scan_jobs_open_idx").on(t.status, t.id).where(sql`status in ('queued', 'running')`),
    index("scan_jobs_profile_idx").on(t.profile_id),
    index("scan_jobs_agent_idx").on(t.scan_agent_id),
    index("scan_jobs_dispatch_idx").on(t.dispatch_id),
  ],
);

export const scanResults = pgTable(
  "scan_results",
  {
    id: serial("id").primaryKey(),
    scan_job_id: integer("scan_job_id")
      .notNull()
      .references(() => scanJobs.id, { onDelete: "cascade" }),
    ip_address: text("ip_address").notNull(),
    mac_address: text("mac_address"),
    hostname: text("hostname"),
    open_ports: jsonb("open_ports").$type<OpenPortRow[]>().notNull().default([]),
    /** MAC vendor from the OUI knowledge base, or what nmap/SNMP said. */
    vendor: text("vendor"),
    /** The model and serial number a device announced (mDNS TXT records, a UPnP description): the passive listener's. */
    model: text("model"),
    serial_number: text("serial_number"),
    os_family: text("os_family"),
    os_vendor: text("os_vendor"),
    os_accuracy: integer("os_accuracy"),
    snmp_sys_name: text("snmp_sys_name"),
    snmp_sys_descr: text("snmp_sys_descr"),
    vlan_id: integer("vlan_id"),
    network_id: integer("network_id").references(() => networks.id, { onDelete: "set null" }),
    device_type: text("device_type"),
    device_confidence: real("device_confidence"),
    rtt_ms: real("rtt_ms"),
    /** Which methods saw the host: icmp, tcp, arp, dns, nmap, snmp, agent ... */
    sources: jsonb("sources").$type<string[]>().notNull().default([]),
    /** new | matched | conflict */
    state: text("state").notNull().default("new"),
    /** [{field, discovered, existing, entity_type, entity_id}] */
    conflicts: jsonb("conflicts").$type<Record<string, unknown>[]>().notNull().default([]),
    matched_entity_type: text("matched_entity_type"),
    matched_entity_id: integer("matched_entity_id"),
    /** How the match was made: mac | ip | hostname. */
    matched_by: text("matched_by"),
    discovery_agent_id: integer("discovery_agent_id").references(() => agents.id, { onDelete: "set null" }),
    /** pending | accepted | merged | rejected | auto_updated */
    merge_status: text("merge_status").notNull().default("pending"),
    reviewed_by: text("reviewed_by"),
    reviewed_at: tz("reviewed_at"),
    /** The audit entry of the merge that consumed this result (its undo lives in that entry's diff). */
    merge_audit_id: integer("merge_audit_id"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("scan_results_job_idx").on(t.scan_job_id, t.id),
    index("scan_results_pending_idx").on(t.merge_status, t.id),
    index("scan_results_ip_idx").on(t.ip_address, t.id),
    index("scan_results_agent_idx").on(t.discovery_agent_id),
  ],
);

export const scanLogs = pgTable(
  "scan_logs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    scan_job_id: integer("scan_job_id")
      .notNull()
      .references(() => scanJobs.id, { onDelete: "cascade" }),
    timestamp: tz("timestamp").notNull().defaultNow(),
    /** DEBUG | INFO | WARNING | ERROR */
    level: text("level").notNull().default("INFO"),
    phase: text("phase"),
    message: text("message").notNull(),
    details: jsonb("details").$type<Record<string, unknown> | null>(),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("scan_logs_job_idx").on(t.scan_job_id, t.id)],
);

/** LLDP neighbours an lldp enrichment job read from a node's LLDP-MIB (apply turns chosen ones into connections). */
export const lldpNeighbors = pgTable(
  "lldp_neighbors",
  {
    id: serial("id").primaryKey(),
    scan_job_id: integer("scan_job_id")
      .notNull()
      .references(() => scanJobs.id, { onDelete: "cascade" }),
    source_scan_result_id: integer("source_scan_result_id").references(() => scanResults.id, { onDelete: "cascade" }),
    source_hardware_id: integer("source_hardware_id").references(() => hardware.id, { onDelete: "cascade" }),
    neighbor_index: integer("neighbor_index").notNull(),
    local_port_desc: text("local_port_desc"),
    remote_chassis_id: text("remote_chassis_id"),
    remote_port_desc: text("remote_port_desc"),
    remote_sys_name: text("remote_sys_name"),
    remote_mgmt_ip: text("remote_mgmt_ip"),
    /** LLDP system capabilities enabled on the neighbour (bridge, router, wlanAccessPoint, ...). */
    remote_caps: jsonb("remote_caps").$type<string[]>().notNull().default([]),
    remote_hardware_id: integer("remote_hardware_id").references(() => hardware.id, { onDelete: "set null" }),
    applied_at: tz("applied_at"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("lldp_neighbors_job_idx").on(t.scan_job_id, t.neighbor_index)],
);

/**
 * What the passive mDNS/SSDP listener heard (issue 28; docs/discovery-listener.md), one row per accepted
 * packet, kept at most LISTENER_LIMITS.maxStoredEvents rows and retentionDays days (pruned as rows arrive).
 */
export const discoveryListenerEvents = pgTable(
  "discovery_listener_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    received_at: tz("received_at").notNull(),
    /** mdns | ssdp */
    protocol: text("protocol").notNull(),
    /** response | query | notify | byebye | search | search_response */
    kind: text("kind").notNull(),
    source: text("source").notNull(),
    address: text("address"),
    mac_address: text("mac_address"),
    hostname: text("hostname"),
    /** [{type, name, port, protocol}] */
    services: jsonb("services")
      .$type<{ type: string; name: string | null; port: number | null; protocol: string }[]>()
      .notNull()
      .default([]),
    vendor: text("vendor"),
    model: text("model"),
    serial_number: text("serial_number"),
    location: text("location"),
    usn: text("usn"),
    server: text("server"),
    /** The sidecar that heard it. */
    heard_by: text("heard_by").notNull(),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("discovery_listener_events_time_idx").on(t.received_at),
    index("discovery_listener_events_protocol_idx").on(t.protocol, t.id),
    index("discovery_listener_events_address_idx").on(t.address, t.id),
  ],
);

/** Each sidecar's listener status (ListenerRuntimeStatus), written with every flush and every heartbeat. */
export const discoveryListenerState = pgTable("discovery_listener_state", {
  owner: text("owner").primaryKey(),
  status: jsonb("status").$type<Record<string, unknown>>().notNull(),
  updated_at: tz("updated_at").notNull(),
});
