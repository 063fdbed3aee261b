// [discovery] request and response shapes of scan jobs, profiles, logs, status and readiness
// (spec/catalogue.tsv, group discovery, with docs/architecture.md, API contracts: the list envelope for /discovery/jobs and profiles, 201 on
// create, `scan_types` as an array beside the original's `scan_types_json` string). Targets, scan types and
// ports are checked by the verbs with shared/domain/discovery/* (they need the allowed set, the agent and
// the readiness), so a 422 names the field either way.
import * as v from "valibot";
import { MAX_PORTS_PER_JOB } from "../domain/discovery/ports.ts";
import { IdParam, Name, patchBody, RefId, writeBody } from "./fields.ts";
import { IntFilter, limitParam, listQuery, listResponse } from "./list-query.ts";

export const JOB_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export const OPEN_JOB_STATUSES = ["queued", "running"] as const;
export const JOB_SOURCE_TYPES = ["manual", "prober", "scheduled", "listener_triggered", "agent"] as const;
export const LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR"] as const;
export const JOB_SORTS = ["id", "created_at", "status", "started_at", "completed_at", "hosts_found"] as const;
export const PROFILE_SORTS = ["name", "created_at", "next_run_at", "last_run", "id"] as const;

const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);
const int = (min: number, max: number) =>
  v.pipe(
    v.number(),
    v.integer("Must be a whole number."),
    v.minValue(min, `Must be at least ${min}.`),
    v.maxValue(max, `Must be at most ${max}.`),
  );
const Text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `Must be at most ${max} characters.`));
const Timestamp = v.nullable(v.string());

/** One target (CIDR, range or address) as text; what it means is checked by parseTargets. */
const Target = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(64));
const TargetList = (max: number) => v.pipe(v.array(Target), v.maxLength(max, `At most ${max} entries.`));
const ScanTypes = v.pipe(v.array(v.pipe(v.string(), v.maxLength(32))), v.maxLength(20));
const Ports = v.pipe(v.array(int(1, 65535)), v.maxLength(MAX_PORTS_PER_JOB, `At most ${MAX_PORTS_PER_JOB} ports.`));
const VlanIds = v.pipe(v.array(int(1, 4094)), v.maxLength(100));
/** nmap options (≤256 characters, reference); each flag is checked against the engine's whitelist by the verb. */
const NmapArguments = v.nullable(v.pipe(v.string(), v.maxLength(256, "Must be at most 256 characters.")));
const Community = v.pipe(v.string(), v.minLength(1, "Must not be empty."), v.maxLength(128));
const SnmpVersion = oneOf(["1", "2c"] as const);
const HostTimeout = int(100, 60_000);

// ---- scan jobs ----

export const ScanRequestBody = writeBody({
  cidr: v.optional(v.nullable(Target)),
  cidrs: v.optional(v.nullable(TargetList(10))),
  targets: v.optional(v.nullable(TargetList(64))),
  exclude: v.optional(v.nullable(TargetList(64))),
  vlan_ids: v.optional(VlanIds, []),
  scan_types: v.optional(v.nullable(ScanTypes)),
  tcp_ports: v.optional(v.nullable(Ports)),
  ports_preset: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
  nmap_arguments: v.optional(NmapArguments),
  snmp_community: v.optional(v.nullable(Community)),
  snmp_version: v.optional(SnmpVersion),
  snmp_port: v.optional(int(1, 65535)),
  label: v.optional(v.nullable(Text(200))),
  scan_agent_id: RefId,
  host_timeout_ms: v.optional(v.nullable(HostTimeout)),
});
export type ScanRequest = v.InferOutput<typeof ScanRequestBody>;

/** POST /discovery/jobs/{job_id}/enrich: the reference sends no body; ours may choose the follow-up scan's types and ports. */
export const EnrichRequestBody = v.optional(
  writeBody({
    scan_types: v.optional(v.nullable(ScanTypes)),
    tcp_ports: v.optional(v.nullable(Ports)),
    ports_preset: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
    nmap_arguments: v.optional(NmapArguments),
    label: v.optional(v.nullable(Text(200))),
    host_timeout_ms: v.optional(v.nullable(HostTimeout)),
  }),
  {},
);
export type EnrichRequest = v.InferOutput<typeof EnrichRequestBody>;

export const ScanJobOut = v.object({
  id: v.number(),
  profile_id: v.nullable(v.number()),
  scan_agent_id: v.nullable(v.number()),
  source_type: v.string(),
  label: v.nullable(v.string()),
  target_cidr: v.nullable(v.string()),
  targets: v.array(v.string()),
  exclude: v.array(v.string()),
  vlan_ids: v.array(v.number()),
  network_ids: v.array(v.number()),
  scan_types: v.array(v.string()),
  /** The original's JSON string of scan_types, kept for its clients. */
  scan_types_json: v.string(),
  tcp_ports: v.array(v.number()),
  status: v.string(),
  started_at: Timestamp,
  completed_at: Timestamp,
  addresses_total: v.number(),
  addresses_done: v.number(),
  hosts_found: v.number(),
  hosts_new: v.number(),
  hosts_updated: v.number(),
  hosts_conflict: v.number(),
  error_text: v.nullable(v.string()),
  error_reason: v.nullable(v.string()),
  triggered_by: v.nullable(v.string()),
  progress_phase: v.nullable(v.string()),
  progress_message: v.nullable(v.string()),
  snmp_community_set: v.boolean(),
  created_at: v.string(),
  updated_at: v.string(),
});
export type ScanJobOut = v.InferInput<typeof ScanJobOut>;
export const ScanJobList = listResponse(ScanJobOut);
/** One job when the request made one, else one per CIDR (reference). */
export const ScanCreated = v.union([ScanJobOut, v.array(ScanJobOut)]);

/** Newest first unless asked otherwise: the reference answered its last jobs newest first. */
export const JobListQuery = listQuery(
  JOB_SORTS,
  {
    status: v.optional(oneOf(JOB_STATUSES)),
    source_type: v.optional(oneOf(JOB_SOURCE_TYPES)),
    profile_id: IntFilter,
    scan_agent_id: IntFilter,
    direction: v.optional(oneOf(["asc", "desc"] as const), "desc"),
  },
  "id",
);

export const JobParams = IdParam("job_id");

export const Cancelled = v.object({ cancelled: v.literal(true) });

export const LogQuery = v.object({
  level: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.toUpperCase()),
      oneOf(LOG_LEVELS),
    ),
  ),
  limit: limitParam({ default: 100, max: 1000 }),
});

export const ScanLogOut = v.object({
  id: v.number(),
  scan_job_id: v.number(),
  timestamp: v.string(),
  level: v.string(),
  phase: v.nullable(v.string()),
  message: v.string(),
  details: v.nullable(v.record(v.string(), v.unknown())),
  created_at: v.string(),
});
export const ScanLogList = v.array(ScanLogOut);

// ---- profiles ----

/** DiscoveryProfileOut fields a client may send back; ignored. */
const PROFILE_READ_ONLY = ["managed_by", "paused_at", "last_run", "next_run_at", "snmp_community_set"];

const profileFields = {
  name: Name,
  cidr: v.optional(v.nullable(Target)),
  targets: v.optional(TargetList(64)),
  exclude: v.optional(TargetList(64)),
  vlan_ids: v.optional(VlanIds),
  scan_types: v.optional(ScanTypes),
  tcp_ports: v.optional(Ports),
  ports_preset: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
  scan_agent_id: RefId,
  nmap_arguments: v.optional(NmapArguments),
  /** Write-only: sealed by the vault, answered as snmp_community_set; null clears it. */
  snmp_community: v.optional(v.nullable(Community)),
  snmp_version: v.optional(SnmpVersion),
  snmp_port: v.optional(int(1, 65535)),
  docker_network_types: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(32))), v.maxLength(10))),
  docker_port_scan: v.optional(v.boolean()),
  docker_socket_path: v.optional(v.pipe(v.string(), v.regex(/^\/[\w./-]{0,254}$/, "Must be an absolute path to a unix socket."))),
  schedule_cron: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100)))),
  enabled: v.optional(v.boolean()),
};

export const ProfileCreateBody = writeBody(profileFields, PROFILE_READ_ONLY);
export const ProfilePatchBody = patchBody(profileFields, PROFILE_READ_ONLY);
export type ProfileCreateInput = v.InferOutput<typeof ProfileCreateBody>;
export type ProfilePatchInput = v.InferOutput<typeof ProfilePatchBody>;

export const ProfileParams = v.object({ profile_id: JobParams.entries.job_id });

export const DiscoveryProfileOut = v.object({
  id: v.number(),
  name: v.string(),
  cidr: v.nullable(v.string()),
  targets: v.array(v.string()),
  exclude: v.array(v.string()),
  scan_agent_id: v.nullable(v.number()),
  managed_by: v.nullable(v.string()),
  paused_at: Timestamp,
  vlan_ids: v.array(v.number()),
  scan_types: v.array(v.string()),
  tcp_ports: v.array(v.number()),
  ports_preset: v.nullable(v.string()),
  nmap_arguments: v.nullable(v.string()),
  snmp_version: v.string(),
  snmp_port: v.number(),
  snmp_community_set: v.boolean(),
  docker_network_types: v.array(v.string()),
  docker_port_scan: v.boolean(),
  docker_socket_path: v.string(),
  schedule_cron: v.nullable(v.string()),
  enabled: v.boolean(),
  last_run: Timestamp,
  next_run_at: Timestamp,
  created_at: v.string(),
  updated_at: v.string(),
});
export type DiscoveryProfileOut = v.InferInput<typeof DiscoveryProfileOut>;
export const ProfileList = listResponse(DiscoveryProfileOut);
export const ProfileListQuery = listQuery(
  PROFILE_SORTS,
  {
    enabled: v.optional(
      v.pipe(
        oneOf(["true", "false"] as const),
        v.transform((s) => s === "true"),
      ),
    ),
  },
  "name",
);

// ---- control ----

export const PausedOut = v.object({ paused: v.boolean() });

export const Capability = v.object({
  key: v.string(),
  title: v.string(),
  state: v.string(),
  explanation: v.string(),
  reason_code: v.nullable(v.string()),
  last_healed_at: Timestamp,
  last_error: v.nullable(v.string()),
});

export const ReadinessOut = v.object({
  /** "known" once the discovery worker stored its probe, "unknown" before (no sidecar ran one yet). */
  state: oneOf(["known", "unknown"] as const),
  checked_at: Timestamp,
  helper_installed: v.boolean(),
  capabilities: v.array(Capability),
});
export type ReadinessOut = v.InferInput<typeof ReadinessOut>;

export const DiscoveryStatusOut = v.object({
  discovery_enabled: v.boolean(),
  scan_ack_accepted: v.boolean(),
  paused: v.boolean(),
  pending_results: v.number(),
  active_jobs: v.array(ScanJobOut),
  last_scan: Timestamp,
  next_scheduled: Timestamp,
  discovery_mode: v.string(),
  effective_mode: v.string(),
  net_raw_capable: v.boolean(),
  docker_available: v.boolean(),
  docker_container_count: v.number(),
});

export const VendorCatalogOut = v.object({
  vendors: v.array(
    v.object({
      key: v.string(),
      name: v.string(),
      oui_prefixes: v.number(),
      hostname_patterns: v.number(),
      device_types: v.array(v.string()),
    }),
  ),
  total: v.number(),
});
