// [telemetry] request and response shapes: the series query, the poll configuration (the community and the
// SNMPv3 keys are write-only: responses carry `community_set`, `auth_key_set`, `priv_key_set`), pushed samples (docs/architecture.md, API contracts) and the read shapes.
import * as v from "valibot";
import { SNMP_V3_RULES } from "../domain/monitors/snmp-v3-fields.ts";
import { writeBody } from "./fields.ts";
import { limitParam } from "./list-query.ts";

export const TELEMETRY_PROTOCOLS = ["snmp", "push"] as const;
export const SNMP_VERSIONS = ["v2c", "v1", "v3"] as const;
export const SAMPLE_STATUSES = ["up", "down"] as const;
export const TELEMETRY_ENTITY_TYPES = ["hardware", "compute_unit", "service"] as const;
export type TelemetryEntityType = (typeof TELEMETRY_ENTITY_TYPES)[number];

/** Most samples one push may carry; the telemetry rate limit (15/min normal) makes batches the way in. */
export const MAX_SAMPLES_PER_PUSH = 1000;
export const DEFAULT_SNMP_PORT = 161;
export const SERIES_LIMIT_DEFAULT = 1000;
export const SERIES_LIMIT_MAX = 10_000;

// A timestamp with a date, a time and a zone: "2026-11-22T10:00:00Z", "...T10:00:00.123+01:00".
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;
const ISO_MESSAGE = "Must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-22T10:00:00Z.";

export const IsoTimestamp = v.pipe(
  v.string(ISO_MESSAGE),
  v.check((s) => ISO_8601.test(s) && !Number.isNaN(Date.parse(s)), ISO_MESSAGE),
  v.transform((s) => new Date(s)),
);

const bounded = (min: number, max: number, message: string) =>
  v.optional(v.nullable(v.pipe(v.number(message), v.minValue(min, message), v.maxValue(max, message))));
const Percent = bounded(0, 100, "Must be a percentage between 0 and 100.");
const NonNegative = bounded(0, 1e15, "Must be a number of at least 0.");

const queryInt = (min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, "Must be a whole number."),
      v.transform(Number),
      v.minValue(min, `Must be at least ${min}.`),
      v.maxValue(max, `Must be at most ${max}.`),
    ),
  );

/** `?since=&until=&limit=` or `?hours=24` (the default window is the last 24 hours). */
export const TelemetryQuery = v.pipe(
  v.object({
    since: v.optional(IsoTimestamp),
    until: v.optional(IsoTimestamp),
    hours: queryInt(1, 24 * 366),
    limit: limitParam({ default: SERIES_LIMIT_DEFAULT, max: SERIES_LIMIT_MAX }),
  }),
  v.forward(
    v.check((q) => !(q.since && q.hours), "Give either since or hours, not both."),
    ["hours"],
  ),
  v.forward(
    v.check((q) => !(q.since && q.until && q.since > q.until), "until must not be before since."),
    ["until"],
  ),
);
export type TelemetryQueryInput = v.InferOutput<typeof TelemetryQuery>;

const ConfigOptions = writeBody({
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(30_000))),
  retries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5))),
});

const configReadOnly = ["hardware_id", "community_set", "auth_key_set", "priv_key_set", "last_polled_at", "last_error", "updated_at"];

/** POST .../telemetry/config: fields given change, the rest keep their stored (or default) values. */
export const TelemetryConfigBody = writeBody(
  {
    protocol: v.optional(v.picklist(TELEMETRY_PROTOCOLS, `Must be one of: ${TELEMETRY_PROTOCOLS.join(", ")}.`)),
    enabled: v.optional(v.boolean()),
    host: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(255)))),
    port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65_535))),
    snmp_version: v.optional(v.picklist(SNMP_VERSIONS, `Must be one of: ${SNMP_VERSIONS.join(", ")}.`)),
    community: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1, "Must not be empty."), v.maxLength(255)))),
    // SNMPv3 (docs/adr/0489): the same keys and rules as the snmp monitor check's.
    ...SNMP_V3_RULES,
    interval_s: v.optional(
      v.pipe(
        v.number(),
        v.integer("Must be a whole number of seconds."),
        v.minValue(10, "Must be at least 10."),
        v.maxValue(3600, "Must be at most 3600."),
      ),
    ),
    options: v.optional(ConfigOptions),
  },
  configReadOnly,
);
export type TelemetryConfigInput = v.InferOutput<typeof TelemetryConfigBody>;

const Sample = writeBody({
  ts: IsoTimestamp,
  cpu_pct: Percent,
  mem_pct: Percent,
  disk_pct: Percent,
  temp_c: bounded(-273.15, 1000, "Must be a temperature between -273.15 and 1000 °C."),
  net_rx_bps: NonNegative,
  net_tx_bps: NonNegative,
  uptime_s: NonNegative,
  status: v.optional(v.nullable(v.picklist(SAMPLE_STATUSES, "Must be up or down."))),
});
export type SampleInput = v.InferOutput<typeof Sample>;

export const SamplesBody = writeBody({
  samples: v.pipe(
    v.array(Sample),
    v.minLength(1, "Send at least one sample."),
    v.maxLength(MAX_SAMPLES_PER_PUSH, `Send at most ${MAX_SAMPLES_PER_PUSH} samples per request; split larger batches.`),
  ),
});

export const TelemetrySample = v.object({
  id: v.number(),
  ts: v.string(),
  cpu_pct: v.nullable(v.number()),
  mem_pct: v.nullable(v.number()),
  disk_pct: v.nullable(v.number()),
  temp_c: v.nullable(v.number()),
  net_rx_bps: v.nullable(v.number()),
  net_tx_bps: v.nullable(v.number()),
  uptime_s: v.nullable(v.number()),
  status: v.nullable(v.string()),
  source: v.string(),
  sample_count: v.nullable(v.number()),
});

export const TelemetryConfig = v.object({
  hardware_id: v.number(),
  protocol: v.string(),
  enabled: v.boolean(),
  host: v.nullable(v.string()),
  port: v.nullable(v.number()),
  snmp_version: v.nullable(v.string()),
  community_set: v.boolean(),
  username: v.nullable(v.string()),
  security_level: v.nullable(v.string()),
  auth_protocol: v.nullable(v.string()),
  auth_key_set: v.boolean(),
  priv_protocol: v.nullable(v.string()),
  priv_key_set: v.boolean(),
  interval_s: v.number(),
  options: v.record(v.string(), v.unknown()),
  last_polled_at: v.nullable(v.string()),
  last_error: v.nullable(v.string()),
  updated_at: v.string(),
});

const telemetryEntries = {
  hardware_id: v.nullable(v.number()),
  hardware_name: v.nullable(v.string()),
  hardware_status: v.nullable(v.string()),
  since: v.string(),
  until: v.nullable(v.string()),
  latest: v.nullable(TelemetrySample),
  series: v.array(TelemetrySample),
  config: v.nullable(TelemetryConfig),
};

export const Telemetry = v.object(telemetryEntries);
export const EntityTelemetry = v.object({
  entity_type: v.picklist(TELEMETRY_ENTITY_TYPES),
  entity_id: v.number(),
  ...telemetryEntries,
});

export const EntityParams = v.object({
  entity_type: v.picklist(TELEMETRY_ENTITY_TYPES, `Must be one of: ${TELEMETRY_ENTITY_TYPES.join(", ")}.`),
  entity_id: v.pipe(v.string(), v.regex(/^\d{1,10}$/, "Must be a positive integer id."), v.transform(Number)),
});

export const PushResult = v.object({
  hardware_id: v.number(),
  stored: v.number(),
  status: v.string(),
  status_changes: v.number(),
});

export const PollQueued = v.object({ queued: v.literal(true), hardware_id: v.number() });
