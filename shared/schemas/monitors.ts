// [monitors] request and response shapes (spec/catalogue.tsv, group monitors, with docs/architecture.md, API contracts: the list envelope
// for /monitors, /monitors/overview, events and probe runs; 201 on create). `config` is checked per check
// type by the verbs (shared/domain/monitors/config.ts), since PATCH checks it against the stored type.
import * as v from "valibot";
import { CHECK_TYPES } from "../domain/monitors/config.ts";
import { Name, patchBody, Ref, RefId, writeBody } from "./fields.ts";
import { DeliverySummary } from "./alerts.ts";
import { IntFilter, limitParam, listQuery, listResponse, Offset, queryInt, TextFilter } from "./list-query.ts";

export const TARGET_TYPES = ["hardware", "compute_unit", "external_node", "service", "ip"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
/** `degraded` (ours, docs/adr/0441): a multi-vantage monitor some of whose points, fewer than its quorum, report down. */
export const MONITOR_STATUSES = ["up", "pending", "degraded", "down", "maintenance"] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];
/** The reference's five, `maintenance` (ours: the runner records entering a window) and `degraded` (docs/adr/0441). */
export const MONITOR_EVENT_TYPES = ["up", "down", "pending", "degraded", "paused", "resumed", "maintenance"] as const;
/** At most this many vantage agents per monitor (each is one probe run per interval). */
export const MAX_VANTAGE_AGENTS = 16;
/** `target_type` and `site` (the site's name) keep the console's groups together across pages. */
export const MONITOR_SORTS = ["name", "status", "check_type", "host", "last_polled_at", "created_at", "id", "target_type", "site"] as const;
/** The metrics a sample holds as columns; others live in its `extra` (history reads both). */
export const SAMPLE_METRICS = ["avail", "latency_ms", "packet_loss_pct", "http_status", "cert_days_remaining"] as const;

const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);
const Timestamp = v.nullable(v.string());
const Json = v.record(v.string(), v.unknown());
const boundedInt = (min: number, max: number) =>
  v.pipe(
    v.number(),
    v.integer("Must be a whole number."),
    v.minValue(min, `Must be at least ${min}.`),
    v.maxValue(max, `Must be at most ${max}.`),
  );

// A host name, an IP address or (http) a URL's host: printable, no spaces. Empty is allowed here: a push
// or group monitor has no host, and the verb requires one of probe types.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a host may not hold
const HOST_CHARACTERS = /^[^\s\u0000-\u001f\u007f]*$/;
const Host = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(255),
  v.regex(HOST_CHARACTERS, "Must be a host name, an address or a URL, without spaces."),
);
const BoolQuery = v.optional(
  v.pipe(
    oneOf(["true", "false"] as const),
    v.transform((s) => s === "true"),
  ),
);

// ---- requests ----

export const MonitorListQuery = listQuery(
  MONITOR_SORTS,
  {
    /** `none`: the monitors without a target (they check an address). */
    target_type: v.optional(oneOf([...TARGET_TYPES, "none"] as const)),
    target_id: IntFilter,
    enabled: BoolQuery,
    /** The site of the hardware the target is or runs on (docs/adr/0464). */
    site_id: IntFilter,
    /** A tag of the target or of the hardware it runs on (docs/adr/0464). */
    tag: TextFilter,
    status: v.optional(oneOf(MONITOR_STATUSES)),
    check_type: v.optional(oneOf(CHECK_TYPES)),
    probe_agent_id: IntFilter,
    /** A group's members (docs/adr/0440). */
    group_id: IntFilter,
  },
  "name",
);

/** MonitorRead fields a client may send back; they are ignored. */
const MONITOR_READ_ONLY = [
  "status",
  "retries",
  "last_polled_at",
  "last_status_change_at",
  "uptime_pct_24h",
  "latency_ms",
  "probe_mode",
  "probe_agent",
  "probe_execution_status",
  "probe_execution_reason",
  "probe_last_dispatched_at",
  "probe_last_result_at",
  "next_check_at",
  "last_msg",
  "push_token_set",
  // The create answer of a push monitor; sent back, they change nothing (rotate makes a new token).
  "push_token",
  "push_url",
  "latency_series",
  "recent_checks",
  "heartbeats",
  "site",
  "tags",
  "vantage_results",
  "members",
  // Derived from the status pages that list the monitor (docs/adr/0461).
  "badge_listed",
];

const monitorFields = {
  name: Name,
  // Required by every probe type, refused by push and group monitors: the verb decides by the type.
  host: v.optional(Host),
  config: v.optional(Json),
  interval_secs: v.optional(boundedInt(10, 86_400)),
  max_retries: v.optional(boundedInt(0, 10)),
  retry_interval_secs: v.optional(v.nullable(boundedInt(5, 86_400))),
  enabled: v.optional(v.boolean()),
  target_type: v.optional(v.nullable(oneOf(TARGET_TYPES))),
  target_id: RefId,
  probe_agent_id: RefId,
  vantage_agent_ids: v.optional(
    v.pipe(
      v.array(Ref),
      v.maxLength(MAX_VANTAGE_AGENTS, `At most ${MAX_VANTAGE_AGENTS} vantage agents.`),
      v.transform((ids) => [...new Set(ids)]),
    ),
  ),
  vantage_sidecar: v.optional(v.boolean()),
  // Checked against the number of vantage points by the verb (422 at quorum when larger).
  quorum: v.optional(v.nullable(boundedInt(1, MAX_VANTAGE_AGENTS + 1))),
  // The group monitor this one belongs to (docs/adr/0440): a group, not itself, no cycle.
  group_id: RefId,
  // Its SVG badges answer anyone (docs/adr/0455).
  badge_public: v.optional(v.boolean()),
};

export const MonitorCreateBody = writeBody({ ...monitorFields, check_type: oneOf(CHECK_TYPES) }, MONITOR_READ_ONLY);
// check_type is read-only here: sent back unchanged it is ignored; the verb refuses a different one.
export const MonitorPatchBody = patchBody({ ...monitorFields, check_type: v.optional(oneOf(CHECK_TYPES)) }, MONITOR_READ_ONLY);
export type MonitorCreateInput = v.InferOutput<typeof MonitorCreateBody>;
export type MonitorPatchInput = v.InferOutput<typeof MonitorPatchBody>;

export const TargetParams = v.object({
  target_type: oneOf(TARGET_TYPES),
  target_id: v.pipe(
    v.string(),
    v.regex(/^\d{1,10}$/, "Must be a positive integer id."),
    v.transform(Number),
    v.minValue(1, "Must be a positive integer id."),
    v.maxValue(2_147_483_647, "No such id."),
  ),
});
export const TargetMonitorCreateBody = v.optional(writeBody({ check_type: v.optional(oneOf(CHECK_TYPES)), config: v.optional(Json) }));

export const TargetSummaryQuery = v.object({
  target_type: oneOf(TARGET_TYPES),
  target_ids: v.optional(
    v.pipe(v.string(), v.description("Target ids, repeated (target_ids=1&target_ids=2) or comma-separated; present but empty answers [].")),
  ),
});
export const MAX_TARGET_IDS = 500;

export const MonitorEventsQuery = v.object({
  limit: limitParam({ default: 50, max: 500 }),
  offset: Offset,
  event_type: v.optional(oneOf(MONITOR_EVENT_TYPES)),
});
export const HistoryQuery = v.object({
  metric: v.optional(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/, "Must be a metric name such as latency_ms.")), "latency_ms"),
  hours: queryInt(24, 1, 720),
});
export const ProbeRunsQuery = v.object({ limit: limitParam({ default: 20, max: 200 }), offset: Offset });

// ---- maintenance windows ----

const Instant = v.pipe(
  v.string(),
  v.check(
    (s) => /(Z|[+-]\d\d:?\d\d)$/i.test(s) && !Number.isNaN(Date.parse(s)),
    "Must be an ISO 8601 time with a zone, e.g. 2026-11-02T22:00:00Z.",
  ),
);
const windowFields = {
  name: Name,
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2000)))),
  enabled: v.optional(v.boolean()),
  starts_at: v.optional(v.nullable(Instant)),
  ends_at: v.optional(v.nullable(Instant)),
  cron: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)))),
  duration_minutes: v.optional(v.nullable(boundedInt(1, 10_080))),
  timezone: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64)))),
  monitor_ids: v.optional(
    v.pipe(
      v.array(Ref),
      v.maxLength(1000),
      v.transform((ids) => [...new Set(ids)]),
    ),
  ),
  target_type: v.optional(v.nullable(oneOf(TARGET_TYPES))),
  target_id: RefId,
  site_id: RefId,
  tag: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64)))),
};
const WINDOW_READ_ONLY = ["kind", "active", "next_starts_at", "current_ends_at"];
export const MaintenanceWindowBody = writeBody(windowFields, WINDOW_READ_ONLY);
export const MaintenanceWindowPatchBody = patchBody(windowFields, WINDOW_READ_ONLY);
export type MaintenanceWindowInput = v.InferOutput<typeof MaintenanceWindowPatchBody>;
export const MaintenanceListQuery = listQuery(["name", "id", "created_at"] as const, { enabled: BoolQuery, monitor_id: IntFilter }, "name");

// ---- responses ----

const ProbeBlock = {
  probe_agent_id: v.nullable(v.number()),
  probe_mode: oneOf(["server", "agent"] as const),
  probe_agent: v.nullable(v.object({ id: v.number(), name: v.nullable(v.string()) })),
  probe_execution_status: v.nullable(v.string()),
  probe_execution_reason: v.nullable(v.string()),
  probe_last_dispatched_at: Timestamp,
  probe_last_result_at: Timestamp,
};

export const MonitorRead = v.object({
  id: v.number(),
  name: v.string(),
  check_type: oneOf(CHECK_TYPES),
  host: v.string(),
  config: Json,
  interval_secs: v.number(),
  max_retries: v.number(),
  retry_interval_secs: v.nullable(v.number()),
  enabled: v.boolean(),
  target_type: v.nullable(v.string()),
  target_id: v.nullable(v.number()),
  status: oneOf(MONITOR_STATUSES),
  retries: v.number(),
  last_polled_at: Timestamp,
  last_status_change_at: Timestamp,
  next_check_at: v.string(),
  last_msg: v.nullable(v.string()),
  uptime_pct_24h: v.nullable(v.number()),
  latency_ms: v.nullable(v.number()),
  created_at: v.string(),
  updated_at: v.string(),
  ...ProbeBlock,
  /** Multi-vantage checks (docs/adr/0441): empty for a single-point monitor. */
  vantage_agent_ids: v.array(v.number()),
  vantage_sidecar: v.boolean(),
  /** The quorum applied (the stored one, or a majority of the points); null for a single-point monitor. */
  quorum: v.nullable(v.number()),
  group_id: v.nullable(v.number()),
  /** Whether its SVG badges (/badges/monitors/{id}/...) answer anyone, without a credential (docs/adr/0455). */
  badge_public: v.boolean(),
  /** Whether a published status page lists it as a monitor item, which makes its badges public too (docs/adr/0461). */
  badge_listed: v.boolean(),
  /** A group monitor's members by where they stand (paused and in maintenance do not count); null for other monitors. */
  members: v.nullable(
    v.object({ total: v.number(), up: v.number(), down: v.number(), pending: v.number(), paused: v.number(), maintenance: v.number() }),
  ),
  push_token_set: v.optional(
    v.pipe(v.boolean(), v.description("Push monitors only: whether it has a push token (never the token itself).")),
  ),
});
export type MonitorReadShape = v.InferInput<typeof MonitorRead>;

/** One result of a heartbeat bar (docs/adr/0465): when, the state the monitor was in after it, its latency and message. */
export const Heartbeat = v.object({
  ts: v.string(),
  status: oneOf(MONITOR_STATUSES),
  latency_ms: v.nullable(v.number()),
  msg: v.nullable(v.string()),
});
export type HeartbeatShape = v.InferInput<typeof Heartbeat>;

/** One vantage point's last result (docs/adr/0441). */
export const VantageResult = v.object({
  /** `sidecar`, or the agent's id as text. */
  vantage: v.string(),
  agent: v.nullable(v.object({ id: v.number(), name: v.nullable(v.string()) })),
  /** The point's last result; null before its first. */
  status: v.nullable(oneOf(["up", "down"] as const)),
  msg: v.nullable(v.string()),
  latency_ms: v.nullable(v.number()),
  checked_at: Timestamp,
  /** Whether that result is recent enough to count in the quorum now. */
  fresh: v.boolean(),
  /** Agents: the last dispatch (queued, or unavailable with the agent's refusal reason). */
  dispatch_status: v.nullable(v.string()),
  dispatch_reason: v.nullable(v.string()),
  dispatched_at: Timestamp,
});
export type VantageResultShape = v.InferInput<typeof VantageResult>;
export const MonitorDetail = v.object({ ...MonitorRead.entries, vantage_results: v.array(VantageResult), heartbeats: v.array(Heartbeat) });
export type MonitorDetailShape = v.InferInput<typeof MonitorDetail>;
export const MonitorList = listResponse(MonitorRead);

export const RecentCheck = v.object({
  id: v.number(),
  status_to: v.nullable(v.string()),
  msg: v.nullable(v.string()),
  created_at: v.string(),
});

export const MonitorOverview = v.object({
  ...MonitorRead.entries,
  latency_series: v.array(v.number()),
  recent_checks: v.array(RecentCheck),
  /** The last 50 results, oldest first. */
  heartbeats: v.array(Heartbeat),
  /** The site of the hardware the target is or runs on (docs/adr/0464). */
  site: v.nullable(v.object({ id: v.number(), name: v.string() })),
  /** The target's tags and those of the hardware it runs on, sorted, each once. */
  tags: v.array(v.string()),
});
export type MonitorOverviewShape = v.InferInput<typeof MonitorOverview>;

/** A count per state (MONITOR_STATUSES). */
const StatusCounts = v.object({ up: v.number(), pending: v.number(), degraded: v.number(), down: v.number(), maintenance: v.number() });
export type StatusCountsShape = v.InferInput<typeof StatusCounts>;
/** How many monitors of the filtered list (its `status` filter aside) are in each state, in all and per target kind. */
export const MonitorCounts = v.object({
  total: v.number(),
  status: StatusCounts,
  /** One row per target kind present; `none` for the monitors without a target. */
  target_types: v.array(v.object({ target_type: v.string(), total: v.number(), status: StatusCounts })),
});
export type MonitorCountsShape = v.InferInput<typeof MonitorCounts>;
export const MonitorOverviewList = v.object({ ...listResponse(MonitorOverview).entries, counts: MonitorCounts });

export const TargetSummary = v.object({
  target_type: v.string(),
  target_id: v.number(),
  monitor_id: v.number(),
  monitor_ids: v.array(v.number()),
  enabled: v.boolean(),
  status: oneOf(MONITOR_STATUSES),
  latency_ms: v.nullable(v.number()),
  uptime_pct_24h: v.nullable(v.number()),
  last_polled_at: Timestamp,
  ...ProbeBlock,
});
export type TargetSummaryShape = v.InferInput<typeof TargetSummary>;
export const TargetSummaryList = v.array(TargetSummary);

export const StatusOk = v.object({ status: v.literal("ok") });

/**
 * Who a suppressed event's notification was folded into (`suppressed_by`): the root alert's monitor and
 * the target it watches, the upstream that was down first. `target.name` is null unless the caller may
 * read that inventory group; `monitor.name` null when that monitor has been deleted since.
 */
export const MonitorUpstream = v.object({
  alert_id: v.number(),
  monitor: v.nullable(v.object({ id: v.number(), name: v.nullable(v.string()), status: v.nullable(v.string()) })),
  target: v.nullable(v.object({ type: v.string(), id: v.number(), name: v.nullable(v.string()) })),
});
export type MonitorUpstreamShape = v.InferInput<typeof MonitorUpstream>;

/**
 * The alert an event raised (a down, degraded or recovery event; others raise none) and what became of it:
 * `dispatch_state` as on /alerts, its `incident_id` (the page /alerts/{id}) and its deliveries by outcome.
 */
export const MonitorEventAlert = v.object({
  id: v.number(),
  dispatch_state: v.pipe(v.string(), v.description("waiting | dispatched | suppressed | debounced | unrouted | in_hand")),
  incident_id: v.nullable(v.number()),
  deliveries: DeliverySummary,
});
export type MonitorEventAlertShape = v.InferInput<typeof MonitorEventAlert>;

export const MonitorEvent = v.object({
  id: v.number(),
  monitor_id: v.number(),
  event_type: v.string(),
  status_from: v.nullable(v.string()),
  status_to: v.nullable(v.string()),
  msg: v.nullable(v.string()),
  duration_secs: v.nullable(v.number()),
  suppressed_by: v.nullable(v.number()),
  upstream: v.nullable(MonitorUpstream),
  /** On a down event whose alert others were folded into: those monitors (a deleted one has no name). */
  suppressed_dependents: v.array(v.object({ id: v.number(), name: v.nullable(v.string()) })),
  /** The alert it raised; null when it raised none, or the caller may not read alerts (read:alerts). */
  alert: v.nullable(MonitorEventAlert),
  /** What decided a group monitor's change (docs/adr/0440): its rule, its members' counts and the deciding members; null otherwise. */
  detail: v.nullable(Json),
  created_at: v.string(),
});
export type MonitorEventShape = v.InferInput<typeof MonitorEvent>;
export const MonitorEventList = listResponse(MonitorEvent);

export const HistoryPoints = v.array(v.object({ ts: v.string(), value: v.number() }));

export const ProbeRun = v.object({
  run_id: v.string(),
  agent_id: v.number(),
  status: v.string(),
  outcome: v.nullable(v.string()),
  msg: v.nullable(v.string()),
  error_code: v.nullable(v.string()),
  scheduled_at: v.string(),
  dispatched_at: Timestamp,
  deadline_at: v.string(),
  started_at: Timestamp,
  completed_at: Timestamp,
  attempt_count: v.number(),
  created_at: v.string(),
});
export type ProbeRunShape = v.InferInput<typeof ProbeRun>;
export const ProbeRunList = listResponse(ProbeRun);

const Coverage = v.nullable(v.object({ observed_minutes: v.number(), window_minutes: v.number(), pct: v.number() }));
export const Uptime = v.object({
  pct_24h: v.nullable(v.number()),
  pct_7d: v.nullable(v.number()),
  pct_30d: v.nullable(v.number()),
  pct_365d: v.nullable(v.number()),
  pct_total: v.nullable(v.number()),
  last_polled_at: Timestamp,
  coverage_24h: Coverage,
  coverage_7d: Coverage,
  coverage_30d: Coverage,
});
export type UptimeShape = v.InferInput<typeof Uptime>;

export const MaintenanceWindow = v.object({
  id: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  enabled: v.boolean(),
  kind: oneOf(["one_off", "recurring"] as const),
  starts_at: Timestamp,
  ends_at: Timestamp,
  cron: v.nullable(v.string()),
  duration_minutes: v.nullable(v.number()),
  timezone: v.nullable(v.string()),
  monitor_ids: v.array(v.number()),
  target_type: v.nullable(v.string()),
  target_id: v.nullable(v.number()),
  site_id: v.nullable(v.number()),
  tag: v.nullable(v.string()),
  /** Whether the window covers now. */
  active: v.boolean(),
  /** While active: when the open occurrence ends (ends_at, or a recurring run's start + duration_minutes). */
  current_ends_at: Timestamp,
  /** The next occurrence's start (recurring), or starts_at while still ahead (one-off). */
  next_starts_at: Timestamp,
  created_at: v.string(),
  updated_at: v.string(),
});
export type MaintenanceWindowShape = v.InferInput<typeof MaintenanceWindow>;
export const MaintenanceWindowList = listResponse(MaintenanceWindow);
