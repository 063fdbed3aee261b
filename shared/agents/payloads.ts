// The payloads of every agent -> server frame (spec/catalogue.tsv, group agents, with the reference's
// limits). The sidecar parses each frame's payload with the schema of its type; the reference agent types
// the frames it sends against the same InferOutput types, so both ends agree by construction. Objects are
// loose (a newer agent may add fields; they are kept, never trusted), lists and strings are bounded, and
// a frame never exceeds MAX_FRAME_BYTES anyway (frames.ts). A payload that fails its schema is malformed
// input: the link closes 1008 and nothing it carried is stored.
import * as v from "valibot";
import type { AgentFrameType } from "./frames.ts";
import { MAX_TLS_PINS, TLS_PIN_PATTERN } from "./tls-pin.ts";

// ---- building blocks ----

/** ISO-8601 with `T` (the Go agent's time.Time), as frames.ts checks the envelope's ts. */
const ISO_WITH_T = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
export const IsoTime = v.pipe(
  v.string(),
  v.regex(ISO_WITH_T, "Must be an ISO-8601 date-time with T."),
  v.check((s) => !Number.isNaN(Date.parse(s)), "Must be a valid date-time."),
);
const hex = (length: number) =>
  v.pipe(v.string(), v.regex(new RegExp(`^[0-9a-f]{${length}}$`), `Must be ${length} lower-case hex characters.`));
const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `At most ${max} characters.`));
/** Telemetry figures: finite and within what a `real` column holds, so a batch never fails on one. */
const MEASURE_LIMIT = 1e18;
const optionalText = (max: number) => v.optional(v.nullable(text(max)));
const count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const list = <T extends v.GenericSchema>(item: T, max: number) => v.pipe(v.array(item), v.maxLength(max, `At most ${max} entries.`));
const measure = v.optional(v.nullable(v.pipe(v.number(), v.finite(), v.minValue(-MEASURE_LIMIT), v.maxValue(MEASURE_LIMIT))));
const json = v.record(v.string(), v.unknown());

/** A 64-hex X25519 public key. */
export const PublicKeyHex = hex(64);
/** The TLS pins an agent holds (base64 SHA-256 of a SubjectPublicKeyInfo; tls-pin.ts). */
export const TlsPins = v.optional(
  list(v.pipe(v.string(), v.regex(TLS_PIN_PATTERN, "Must be a base64 SHA-256 (44 characters).")), MAX_TLS_PINS),
);
/** telemetry.host sample ids and probe run ids. */
export const Id32 = hex(32);

export const READINESS_STATES = ["ready", "degraded", "unavailable", "disabled"] as const;
export const Readiness = v.looseObject({
  collector: text(64),
  state: v.picklist(READINESS_STATES),
  reason: optionalText(512),
  remediation: optionalText(1024),
  missing: v.optional(list(text(128), 32), []),
});
export const Network = v.looseObject({
  name: text(64),
  flags: v.optional(list(text(32), 16), []),
  /** CIDRs, e.g. 192.168.1.10/24. */
  addrs: v.optional(list(text(64), 64), []),
});
const readinessList = list(Readiness, 32);
const networkList = list(Network, 64);

// ---- one schema per frame type ----

export const HelloPayload = v.looseObject({
  /** Must equal the static key the Noise handshake authenticated. */
  device_pk: PublicKeyHex,
  hostname: text(253),
  machine_id_hash: optionalText(128),
  os: text(32),
  os_version: optionalText(128),
  arch: text(32),
  agent_version: text(64),
  primary_macs: v.optional(list(text(32), 32), []),
  readiness: v.optional(readinessList, []),
  networks: v.optional(networkList, []),
  spool_depth: v.optional(count),
  /** < 2 gets grants as bare booleans (grantsOnWire). */
  capability_schema: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 1),
  /** none | self_signed | public (tls-pin.ts); absent from agents that do not pin. */
  tls_pin_kind: optionalText(32),
  /** The pins the agent accepts the server's certificate by; a newer agent's addition, optional. */
  tls_pins: TlsPins,
});

export const HeartbeatPayload = v.looseObject({
  spool_depth: v.optional(count),
  spool_bytes: v.optional(count),
  spool_evicted_frames: v.optional(count),
  spool_evicted_bytes: v.optional(count),
  spool_oldest_ts: v.optional(v.nullable(IsoTime)),
  spool_newest_ts: v.optional(v.nullable(IsoTime)),
  /** Sent when the pins the agent holds changed on this link (a tls.pin.rotate adopted). */
  tls_pins: TlsPins,
});

export const TelemetrySummaryPayload = v.looseObject({
  cpu_pct: measure,
  mem_pct: measure,
  swap_pct: measure,
  root_disk_pct: measure,
  net_rx_bps: measure,
  net_tx_bps: measure,
  max_temp_c: measure,
  load_1: measure,
  uptime_s: measure,
});
export const TelemetryHostPayload = v.looseObject({
  schema: v.literal(1),
  /** The agent's id of this sample: a frame re-sent after a reconnect is stored once. */
  sample_id: Id32,
  status: v.picklist(["healthy", "degraded"]),
  /** When the agent measured it; the frame's ts when absent. */
  collected_at: v.optional(IsoTime),
  summary: TelemetrySummaryPayload,
  filesystems: v.optional(list(json, 128), []),
  disks: v.optional(list(json, 128), []),
  interfaces: v.optional(list(json, 128), []),
  temperatures: v.optional(list(json, 256), []),
  docker: v.optional(v.nullable(json)),
});

export const PROBE_OUTCOMES = ["completed", "execution_error", "cancelled", "rejected"] as const;
export const ProbeResultPayload = v.looseObject({
  run_id: Id32,
  monitor_id: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
  outcome: v.picklist(PROBE_OUTCOMES),
  up: v.boolean(),
  started_at: v.optional(v.nullable(IsoTime)),
  finished_at: v.optional(v.nullable(IsoTime)),
  samples: v.optional(
    list(v.looseObject({ metric: text(64), value: v.nullable(v.pipe(v.number(), v.finite())), error_reason: optionalText(256) }), 64),
    [],
  ),
  msg: optionalText(2000),
  details: v.optional(v.nullable(json)),
});

export const DiscoveryFindingPayload = v.looseObject({
  dispatch_id: Id32,
  scan_job_id: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
  finding_id: v.pipe(v.string(), v.regex(/^[0-9a-f]{1,64}$/, "Must be 1-64 lower-case hex characters.")),
  kind: v.picklist(["host", "summary"]),
  observed_at: v.optional(v.nullable(IsoTime)),
  ip_address: optionalText(64),
  mac_address: optionalText(32),
  hostname: optionalText(253),
  open_ports: v.optional(
    list(
      v.looseObject({
        port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
        protocol: text(8),
        banner: optionalText(512),
      }),
      64,
    ),
    [],
  ),
  evidence: v.optional(list(text(32), 16), []),
  terminal: v.optional(v.boolean(), false),
  outcome: optionalText(32),
  hosts_found: v.optional(v.nullable(count)),
  addresses_scanned: v.optional(v.nullable(count)),
  msg: optionalText(2000),
  error_code: optionalText(64),
});

export const CapabilityReadinessPayload = v.looseObject({
  readiness: readinessList,
  networks: v.optional(networkList),
});

export const VIOLATION_REASONS = [
  "special_use",
  "excluded_cidr",
  "empty_scope",
  "out_of_scope",
  "invalid_destination",
  "prefix_too_wide",
  "not_directly_connected",
] as const;
export const CapabilityViolationPayload = v.looseObject({
  frame_type: text(64),
  reason: v.picklist(VIOLATION_REASONS),
  address: optionalText(253),
  detail: optionalText(1024),
});

export const UPDATE_PHASES = ["started", "succeeded", "failed", "rolled_back"] as const;
export const UpdateStatusPayload = v.looseObject({
  version: text(64),
  phase: v.picklist(UPDATE_PHASES),
  error: optionalText(2000),
});

export const LogPayload = v.looseObject({
  level: v.optional(v.picklist(["debug", "info", "warn", "error"]), "info"),
  msg: text(4000),
});

export const UninstallPayload = v.looseObject({ reason: optionalText(512) });

export const KeyRotatePayload = v.looseObject({
  kind: v.literal("device"),
  successor_pk: PublicKeyHex,
  expiry: IsoTime,
});

export const TransportRekeyPayload = v.looseObject({
  direction: v.literal("outbound"),
  generation: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** The schema of each agent -> server frame type. */
export const AGENT_PAYLOADS = {
  hello: HelloPayload,
  heartbeat: HeartbeatPayload,
  "telemetry.host": TelemetryHostPayload,
  "probe.result": ProbeResultPayload,
  "discovery.finding": DiscoveryFindingPayload,
  "capability.readiness": CapabilityReadinessPayload,
  "capability.violation": CapabilityViolationPayload,
  "update.status": UpdateStatusPayload,
  log: LogPayload,
  uninstall: UninstallPayload,
  "key.rotate": KeyRotatePayload,
  "transport.rekey": TransportRekeyPayload,
} as const satisfies Record<AgentFrameType, v.GenericSchema>;

export type HelloPayload = v.InferOutput<typeof HelloPayload>;
export type HeartbeatPayload = v.InferOutput<typeof HeartbeatPayload>;
export type TelemetrySummaryPayload = v.InferOutput<typeof TelemetrySummaryPayload>;
export type TelemetryHostPayload = v.InferOutput<typeof TelemetryHostPayload>;
export type ProbeResultPayload = v.InferOutput<typeof ProbeResultPayload>;
export type DiscoveryFindingPayload = v.InferOutput<typeof DiscoveryFindingPayload>;
export type CapabilityReadinessPayload = v.InferOutput<typeof CapabilityReadinessPayload>;
export type CapabilityViolationPayload = v.InferOutput<typeof CapabilityViolationPayload>;
export type UpdateStatusPayload = v.InferOutput<typeof UpdateStatusPayload>;
export type LogPayload = v.InferOutput<typeof LogPayload>;
export type UninstallPayload = v.InferOutput<typeof UninstallPayload>;
export type KeyRotatePayload = v.InferOutput<typeof KeyRotatePayload>;
export type TransportRekeyPayload = v.InferOutput<typeof TransportRekeyPayload>;
export type ReadinessPayload = v.InferOutput<typeof Readiness>;
export type NetworkPayload = v.InferOutput<typeof Network>;

/** What the agent sends, by frame type (the input side: optional fields may be left out). */
export type AgentPayloadInput<T extends AgentFrameType> = v.InferInput<(typeof AGENT_PAYLOADS)[T]>;
export type AgentPayload<T extends AgentFrameType> = v.InferOutput<(typeof AGENT_PAYLOADS)[T]>;

/** The payload of one frame, parsed, or the first issue as a short reason (for the close and the event). */
export function parseAgentPayload<T extends AgentFrameType>(
  type: T,
  payload: unknown,
): { ok: true; payload: AgentPayload<T> } | { ok: false; reason: string } {
  if (hasNul(payload, 0)) return { ok: false, reason: `${type} carries a NUL character or nests deeper than 64 levels` };
  const result = v.safeParse(AGENT_PAYLOADS[type] as v.GenericSchema, payload);
  if (result.success) return { ok: true, payload: result.output as AgentPayload<T> };
  const issue = result.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join(".") ?? "";
  return { ok: false, reason: `${type} ${path ? `${path}: ` : ""}${issue.message}`.slice(0, 200) };
}

/**
 * PostgreSQL stores no NUL in text or jsonb: one would fail the whole write batch it travels in, so a
 * payload carrying one (in a key or a string, at any depth) is refused up front. Depth is bounded by
 * the frame size; the walk stops at 64 levels and refuses deeper nesting too.
 */
function hasNul(value: unknown, depth: number): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (typeof value !== "object" || value === null) return false;
  if (depth > 64) return true;
  if (Array.isArray(value)) return value.some((x) => hasNul(x, depth + 1));
  for (const [k, x] of Object.entries(value)) if (k.includes("\u0000") || hasNul(x, depth + 1)) return true;
  return false;
}
