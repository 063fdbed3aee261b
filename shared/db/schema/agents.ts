// Host agents (spec 4.4 agents, 4.5, 6.6; spec/catalogue.tsv, group agents): the devices, their events, the
// server's Noise static keys, probe runs dispatched over the link, and the latest telemetry frame of each
// agent. Samples go to agent_host_samples (telemetry.ts), which retention already covers.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";
import { users } from "./identity.ts";
import { hardware } from "./inventory.ts";

/**
 * The server's X25519 static keys (docs/architecture.md, how an agent frame flows). One `current`; during a rotation one
 * `successor` too, accepted alongside until `overlap_expires_at`; then the successor becomes current and
 * the old key `retired`. The private half is a vault ciphertext, never stored in clear.
 */
export const agentServerKeys = pgTable(
  "agent_server_keys",
  {
    id: serial("id").primaryKey(),
    /** 64 hex. */
    public_key: text("public_key").notNull().unique(),
    /** Vault ciphertext of the 32-byte private key. */
    private_key: text("private_key").notNull(),
    /** First 32 hex of sha256(public key). */
    fingerprint: text("fingerprint").notNull(),
    /** current | successor | retired */
    state: text("state").notNull(),
    created_at: tz("created_at").notNull().defaultNow(),
    activated_at: tz("activated_at"),
    rotation_started_at: tz("rotation_started_at"),
    overlap_expires_at: tz("overlap_expires_at"),
    retired_at: tz("retired_at"),
  },
  (t) => [
    uniqueIndex("agent_server_keys_one_current").on(t.state).where(sql`state = 'current'`),
    uniqueIndex("agent_server_keys_one_successor").on(t.state).where(sql`state = 'successor'`),
  ],
);

export const agents = pgTable(
  "agents",
  {
    id: serial("id").primaryKey(),
    name: text("name"),
    hostname: text("hostname"),
    /** pending | active | rejected | revoked */
    status: text("status").notNull().default("pending"),
    os: text("os"),
    os_version: text("os_version"),
    arch: text("arch"),
    agent_version: text("agent_version"),
    /** The device's X25519 static public key, 64 hex: its identity. */
    device_pk: text("device_pk").notNull().unique(),
    /** First 32 hex of sha256(device static public key). */
    fingerprint: text("fingerprint").notNull(),
    machine_id_hash: text("machine_id_hash"),
    primary_macs: jsonb("primary_macs").$type<string[]>().notNull().default([]),
    networks: jsonb("networks").$type<unknown[]>().notNull().default([]),
    readiness: jsonb("readiness").$type<unknown[]>().notNull().default([]),
    /** From hello: < 2 gets grants as booleans on the wire. */
    capability_schema: integer("capability_schema").notNull().default(1),
    reported_ip: text("reported_ip"),
    notes: text("notes"),
    hardware_id: integer("hardware_id").references(() => hardware.id, { onDelete: "set null" }),
    proposed_hardware_id: integer("proposed_hardware_id").references(() => hardware.id, { onDelete: "set null" }),
    /** Grants as stored: {name: {enabled, config}} (defaults merged on read). */
    capabilities: jsonb("capabilities")
      .$type<Record<string, { enabled: boolean; config: Record<string, unknown> }>>()
      .notNull()
      .default({}),
    /** sha256 hex of the normalised pairing code (upper-case, no dashes); null once consumed or decided. */
    pairing_code_hash: text("pairing_code_hash"),
    pairing_expires_at: tz("pairing_expires_at"),
    enrolled_at: tz("enrolled_at").notNull().defaultNow(),
    approved_at: tz("approved_at"),
    decided_at: tz("decided_at"),
    revoke_reason: text("revoke_reason"),
    last_seen_at: tz("last_seen_at"),
    connected_since: tz("connected_since"),
    /** The sidecar instance holding the live link (null when none). */
    link_owner: text("link_owner"),
    /** The server key the agent last completed a handshake with (rotation fleet counts). */
    server_key_id: integer("server_key_id").references(() => agentServerKeys.id, { onDelete: "set null" }),
    spool_depth: integer("spool_depth"),
    spool_bytes: bigint("spool_bytes", { mode: "number" }),
    spool_reported_at: tz("spool_reported_at"),
    /** An update queued by POST /agents/{id}/update: {version, sha256, os, arch, queued_at}; sent on link. */
    pending_update: jsonb("pending_update").$type<Record<string, unknown> | null>(),
    /**
     * A device key rotation the agent announced (`key.rotate {kind: "device"}`): its successor static key
     * (64 hex), accepted by the link beside device_pk until the expiry; the first link made with it makes
     * it device_pk. Both null when no rotation runs.
     */
    device_successor_pk: text("device_successor_pk").unique(),
    device_successor_expires_at: tz("device_successor_expires_at"),
    /** What the agent said of its TLS pins (hello tls_pin_kind: none | self_signed | public; null: not said). */
    tls_pin_kind: text("tls_pin_kind"),
    /** The pins (base64 SHA-256 of a leaf's SubjectPublicKeyInfo) the agent last reported holding. */
    tls_pins: jsonb("tls_pins").$type<string[] | null>(),
    ...timestamps,
  },
  (t) => [
    index("agents_status_idx").on(t.status),
    index("agents_hardware_idx").on(t.hardware_id),
    index("agents_machine_id_idx").on(t.machine_id_hash),
    uniqueIndex("agents_pairing_code_idx").on(t.pairing_code_hash).where(sql`pairing_code_hash is not null`),
  ],
);

/**
 * A TLS pin rotation (POST /agents/tls-pin/rotate): the successor pin every agent hears of in
 * `tls.pin.rotate` (now when linked, else when it links) and accepts beside its current pin until
 * `expires_at`. At most one is `active`; a newer one ends it (`superseded`).
 */
export const agentTlsPinRotations = pgTable(
  "agent_tls_pin_rotations",
  {
    id: serial("id").primaryKey(),
    /** public | self_signed */
    mode: text("mode").notNull(),
    /** base64 SHA-256 of the successor leaf's SubjectPublicKeyInfo (44 characters). */
    successor_pin: text("successor_pin").notNull(),
    /** The certificate the pin was taken from, when it was given by id. */
    certificate_id: integer("certificate_id"),
    expires_at: tz("expires_at").notNull(),
    /** active | superseded */
    state: text("state").notNull().default("active"),
    started_at: tz("started_at").notNull().defaultNow(),
    started_by: integer("started_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("agent_tls_pin_rotations_one_active").on(t.state).where(sql`state = 'active'`)],
);

/** What happened to an agent (spec/catalogue.tsv, group agents event types), newest first on read. */
export const agentEvents = pgTable(
  "agent_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    event_type: text("event_type").notNull(),
    actor_user_id: integer("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    detail: jsonb("detail").$type<Record<string, unknown> | null>(),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("agent_events_agent_idx").on(t.agent_id, t.id)],
);

/**
 * A probe run an agent is asked to make (`probe.assign`) and its answer (`probe.result`). A row is the
 * outbox between functions and the sidecar holding the link: `queued` -> `dispatched` -> an outcome
 * (`completed | execution_error | cancelled | rejected`) or `expired` past its deadline; a result that
 * arrives after the deadline is kept and marked `late`.
 */
export const agentProbeRuns = pgTable(
  "agent_probe_runs",
  {
    /** 32 hex. */
    run_id: text("run_id").primaryKey(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    /** The monitor this run checks for (monitors arrive with their own issue); null for an ad-hoc probe. */
    monitor_id: integer("monitor_id"),
    check_type: text("check_type").notNull(),
    host: text("host").notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    state: text("state").notNull().default("queued"),
    scheduled_at: tz("scheduled_at").notNull(),
    deadline_at: tz("deadline_at").notNull(),
    dispatched_at: tz("dispatched_at"),
    finished_at: tz("finished_at"),
    received_at: tz("received_at"),
    late: boolean("late").notNull().default(false),
    up: boolean("up"),
    samples: jsonb("samples").$type<unknown[]>(),
    msg: text("msg"),
    details: jsonb("details").$type<Record<string, unknown> | null>(),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("agent_probe_runs_agent_state_idx").on(t.agent_id, t.state),
    index("agent_probe_runs_monitor_idx").on(t.monitor_id, t.created_at),
  ],
);

/** The latest telemetry.host frame of each agent, whole (GET /agents/{id}/telemetry answers its payload). */
export const agentLatestTelemetry = pgTable("agent_latest_telemetry", {
  agent_id: integer("agent_id")
    .primaryKey()
    .references(() => agents.id, { onDelete: "cascade" }),
  sample_id: text("sample_id").notNull(),
  collected_at: tz("collected_at").notNull(),
  status: text("status").notNull(),
  summary: jsonb("summary").$type<Record<string, number | null>>().notNull(),
  payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
  received_at: tz("received_at").notNull().defaultNow(),
});

/**
 * The vault's record of its key (docs/architecture.md, API contracts): which key id encrypted the canary, and when the
 * key last rotated. A loaded key that cannot open the canary is a wrong key: the vault says `degraded`
 * and refuses to encrypt anything with it.
 */
export const vaultState = pgTable("vault_state", {
  id: integer("id").primaryKey().default(1),
  key_id: text("key_id").notNull(),
  canary: text("canary").notNull(),
  initialized_at: tz("initialized_at").notNull().defaultNow(),
  last_rotation_at: tz("last_rotation_at"),
});
