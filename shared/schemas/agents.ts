// [agents, agents-binary] request and response shapes (spec/catalogue.tsv, group agents, with our list envelope
// for /agents, /agents/pending and /agents/{id}/events). Grants are answered as {enabled, config} with the
// registry's defaults merged; they may be given as a bare boolean or {enabled, config}.
import * as v from "valibot";
import { CHECK_TYPES } from "../domain/monitors/check-types.ts";
import { IntFilter, Limit, listQuery, listResponse, Offset } from "./list-query.ts";
import { OptionalText, patchBody, RefId, writeBody } from "./fields.ts";

export const AGENT_STATUSES = ["pending", "active", "rejected", "revoked"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export const AGENT_SORTS = ["name", "hostname", "status", "enrolled_at", "last_seen_at", "id"] as const;
export const HOST_LINK_ACTIONS = ["accept", "select", "create", "unlinked"] as const;
export const HISTORY_RANGES = ["1h", "6h", "24h", "7d", "30d"] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

// Segments of an agent build's path (AGENT_BINARY_DIR/<version>/<os>/<arch>/): checked before they touch
// a path, so no separator, no dot segment, bounded length.
export const VERSION_PATTERN = /^(?!.*\.\.)[0-9A-Za-z][0-9A-Za-z._+-]{0,63}$/;
export const OS_PATTERN = /^[a-z][a-z0-9]{0,15}$/;
export const ARCH_PATTERN = /^[a-z0-9][a-z0-9_]{0,15}$/;

const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);
const Timestamp = v.nullable(v.string());
const Json = v.record(v.string(), v.unknown());

// ---- requests ----

export const AgentListQuery = listQuery(AGENT_SORTS, { status: v.optional(oneOf(AGENT_STATUSES)), hardware_id: IntFilter }, "name");
export const PendingAgentsQuery = listQuery(AGENT_SORTS, { hardware_id: IntFilter }, "name");

/** Events are answered newest first; `event_type` narrows them. */
export const AgentEventsQuery = v.object({
  limit: Limit,
  offset: Offset,
  event_type: v.optional(v.pipe(v.string(), v.regex(/^[a-z_]{1,64}$/, "Must be an event type such as approved or update_queued."))),
});

/** `?ids=1&ids=2` or `?ids=1,2` (the handler reads every value; this documents the parameter). */
export const AgentIdsQuery = v.object({
  ids: v.optional(v.pipe(v.string(), v.description("Agent ids, repeated (ids=1&ids=2) or comma-separated; present but empty answers []."))),
});
export const MAX_IDS = 200;

export const HistoryQuery = v.object({ range: v.optional(oneOf(HISTORY_RANGES), "1h") });

const ProbeHost = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "Must not be empty."),
  v.maxLength(253),
  v.regex(/^[0-9A-Za-z.:_%-]+$/, "Must be a host name or an IP address."),
);

export const ProbeEligibleQuery = v.pipe(
  v.object({
    monitor_id: IntFilter,
    host: v.optional(ProbeHost),
    check_type: v.optional(oneOf(CHECK_TYPES)),
    target_type: v.optional(v.pipe(v.string(), v.maxLength(32))),
    target_id: IntFilter,
  }),
  v.forward(
    v.check(
      (q) => q.monitor_id !== undefined || (q.host !== undefined && q.check_type !== undefined),
      "Give monitor_id, or host and check_type.",
    ),
    ["host"],
  ),
);

export const Version = v.pipe(v.string(), v.regex(VERSION_PATTERN, "Must be a version such as 1.4.2 (letters, digits, . _ + -)."));

export const BinaryParams = v.object({
  version: Version,
  os_name: v.pipe(v.string(), v.regex(OS_PATTERN, "Must be an operating system name such as linux.")),
  arch: v.pipe(v.string(), v.regex(ARCH_PATTERN, "Must be an architecture such as amd64 or arm64.")),
});

export const InstallCommandQuery = v.object({
  endpoint: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(300),
      v.check(
        (s) => endpointUrl(s) !== undefined,
        "Must be an http(s) URL of this server, without query or fragment, e.g. https://cp.example.net.",
      ),
    ),
  ),
  tls_mode: v.optional(oneOf(["public", "self_signed"] as const)),
});

/** An http(s) base URL without query, fragment or credentials, its trailing slash removed; else undefined. */
export function endpointUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username || url.password) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** {name: true | false | {enabled?, config?}}; checked against the registry by the verb (422 naming the key). */
const GrantChanges = v.record(v.string(), v.unknown());

export const ApproveBody = v.optional(
  writeBody({
    hardware_id: RefId,
    host_link_action: v.optional(oneOf(HOST_LINK_ACTIONS)),
    capabilities: v.optional(GrantChanges),
  }),
  {},
);

export const REVOKE_REASON_REQUIRED = "A revoke reason is required";
export const RevokeBody = writeBody({
  // A missing reason is the same refusal as a blank one.
  reason: v.pipe(
    v.optional(v.string(REVOKE_REASON_REQUIRED), ""),
    v.trim(),
    v.minLength(3, REVOKE_REASON_REQUIRED),
    v.maxLength(1000, "Must be at most 1000 characters."),
  ),
});

export const CapabilitiesBody = writeBody({ capabilities: GrantChanges });

export const PairingLookupBody = writeBody({ code: v.pipe(v.string("Must be the pairing code the agent shows."), v.maxLength(64)) });

export const UpdateBody = v.optional(writeBody({ version: v.optional(Version) }), {});

// ---- responses ----

export const Grant = v.object({ enabled: v.boolean(), config: Json });
export const Grants = v.object({ host_telemetry: Grant, remote_probe: Grant, local_discovery: Grant });

export const AgentSummary = v.object({
  id: v.number(),
  name: v.nullable(v.string()),
  hostname: v.nullable(v.string()),
  status: v.string(),
  os: v.nullable(v.string()),
  arch: v.nullable(v.string()),
  agent_version: v.nullable(v.string()),
  fingerprint: v.string(),
  hardware_id: v.nullable(v.number()),
  hardware_name: v.nullable(v.string()),
  reported_ip: v.nullable(v.string()),
  last_seen_at: Timestamp,
  online: v.boolean(),
  enrolled_at: v.string(),
});

export const AgentRead = v.object({
  ...AgentSummary.entries,
  os_version: v.nullable(v.string()),
  device_pk: v.string(),
  machine_id_hash: v.nullable(v.string()),
  primary_macs: v.array(v.string()),
  tenant_id: v.null(),
  notes: v.nullable(v.string()),
  approved_at: Timestamp,
  decided_at: Timestamp,
  revoke_reason: v.nullable(v.string()),
  connected_since: Timestamp,
  spool_depth: v.nullable(v.number()),
  spool_bytes: v.nullable(v.number()),
  spool_reported_at: Timestamp,
  capabilities: Grants,
  capability_schema: v.number(),
  proposed_hardware_id: v.nullable(v.number()),
  proposed_hardware_name: v.nullable(v.string()),
  duplicate_machine_id: v.boolean(),
  pending_update: v.nullable(Json),
  created_at: v.string(),
  updated_at: v.string(),
});

/** What GET /agents and /agents/{id} add about updates (shared/verbs/agents/update-offer.ts). */
const UpdateOfferEntries = {
  /** The newest signed build for the agent's os/arch newer than its agent_version; null when none (or no release key). */
  available_version: v.nullable(v.string()),
  /** The update queued for the agent, or null. */
  update: v.nullable(
    v.object({
      version: v.string(),
      /** queued (not sent yet: the agent is not linked), sent (the `update` frame went out), started (the agent said so). */
      state: v.picklist(["queued", "sent", "started"]),
      /** The rollout it belongs to; null for POST /agents/{id}/update. */
      rollout_id: v.nullable(v.number()),
      queued_at: Timestamp,
      sent_at: Timestamp,
    }),
  ),
};

export const AgentListItem = v.object({ ...AgentSummary.entries, ...UpdateOfferEntries });
export const AgentDetail = v.object({ ...AgentRead.entries, ...UpdateOfferEntries });

/** What PATCH /agents/{id} changes. */
const AGENT_WRITABLE = {
  name: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(200)))),
  notes: OptionalText(10_000),
  hardware_id: RefId,
};

/**
 * Every other field of the agent as GET answers it, which a client may send back in a PATCH and which is
 * ignored; derived from the answer's schema, so a field added there is accepted back at once.
 */
const AGENT_READ_ONLY = Object.keys(AgentDetail.entries).filter((k) => !(k in AGENT_WRITABLE));

export const AgentPatchBody = patchBody(AGENT_WRITABLE, AGENT_READ_ONLY);

export const AgentList = listResponse(AgentListItem);

export const AgentEvent = v.object({
  id: v.number(),
  event_type: v.string(),
  actor_user_id: v.nullable(v.number()),
  detail: v.nullable(Json),
  created_at: v.string(),
});
export const AgentEventList = listResponse(AgentEvent);

const Measure = v.nullable(v.number());
/** The 8 summary fields of a telemetry sample (spec/catalogue.tsv, group agents). */
export const TelemetrySummary = v.object({
  cpu_pct: Measure,
  mem_pct: Measure,
  root_disk_pct: Measure,
  net_rx_bps: Measure,
  net_tx_bps: Measure,
  max_temp_c: Measure,
  load_1: Measure,
  uptime_s: Measure,
});
export type SummaryValues = v.InferOutput<typeof TelemetrySummary>;

export const AgentPresence = v.object({
  agent_id: v.number(),
  online: v.boolean(),
  connected_since: Timestamp,
  last_seen_at: Timestamp,
  capabilities: Grants,
  hardware: v.nullable(
    v.object({ id: v.number(), name: v.string(), ip_address: v.nullable(v.string()), mac_address: v.nullable(v.string()) }),
  ),
  latest: v.nullable(v.object({ collected_at: v.string(), ...TelemetrySummary.entries })),
  spool_depth: v.nullable(v.number()),
  spool_bytes: v.nullable(v.number()),
  spool_reported_at: Timestamp,
});
export const AgentPresenceList = v.array(AgentPresence);

export const Readiness = v.object({
  collector: v.string(),
  state: v.string(),
  reason: v.nullable(v.string()),
  remediation: v.nullable(v.string()),
  missing: v.array(v.string()),
  updated_at: Timestamp,
});

export const AgentTelemetry = v.object({
  latest: v.nullable(
    v.object({
      sample_id: v.string(),
      collected_at: v.string(),
      status: v.string(),
      summary: TelemetrySummary,
      payload: Json,
      projected: v.boolean(),
    }),
  ),
  readiness: v.array(Readiness),
  capability: Grant,
  spool: v.object({ depth: v.nullable(v.number()), bytes: v.nullable(v.number()), reported_at: Timestamp }),
  hardware_id: v.nullable(v.number()),
});

export const TelemetryHistory = v.object({
  range: v.string(),
  bucket_s: v.number(),
  points: v.array(v.object({ collected_at: v.string(), summary: TelemetrySummary, sample_count: v.number() })),
});

export const MetricsSeries = v.array(
  v.object({
    agent_id: v.number(),
    points: v.array(
      v.object({
        collected_at: v.string(),
        cpu_pct: v.nullable(v.number()),
        mem_pct: v.nullable(v.number()),
        net_rx_bps: v.nullable(v.number()),
        net_tx_bps: v.nullable(v.number()),
      }),
    ),
  }),
);

export const EligibleProbeAgent = v.object({
  agent_id: v.number(),
  name: v.nullable(v.string()),
  online: v.boolean(),
  granted: v.boolean(),
  readiness: v.nullable(v.string()),
  readiness_collector: v.string(),
  max_concurrent: v.number(),
  active_runs: v.number(),
  assigned_monitors: v.number(),
  scope_version: v.string(),
  scope_networks: v.array(v.string()),
  excluded_networks: v.array(v.string()),
  in_scope: v.boolean(),
  eligible: v.boolean(),
  reason: v.nullable(v.string()),
});
export const EligibleProbeAgents = v.array(EligibleProbeAgent);

export const ProbeRun = v.object({
  run_id: v.string(),
  monitor_id: v.nullable(v.number()),
  check_type: v.string(),
  host: v.string(),
  state: v.string(),
  scheduled_at: v.string(),
  deadline_at: v.string(),
  dispatched_at: Timestamp,
  finished_at: Timestamp,
  up: v.nullable(v.boolean()),
  late: v.boolean(),
  msg: v.nullable(v.string()),
});

export const AgentProbes = v.object({
  agent_id: v.number(),
  max_concurrent: v.number(),
  active_runs: v.number(),
  assignments: v.array(Json),
  recent_runs: v.array(ProbeRun),
});

export const PairingMatch = v.object({
  agent_id: v.number(),
  hostname: v.nullable(v.string()),
  os: v.nullable(v.string()),
  arch: v.nullable(v.string()),
  fingerprint: v.string(),
  proposed_hardware_id: v.nullable(v.number()),
  proposed_hardware_name: v.nullable(v.string()),
  duplicate_machine_id: v.boolean(),
});

export const UpdateQueued = v.object({ status: v.literal("queued"), version: v.string() });

export const InstallCommand = v.object({
  tls_mode: oneOf(["public", "self_signed", "none"] as const),
  server_url: v.string(),
  command: v.string(),
  script_sha256: v.string(),
});

export const ServerKeyStatus = v.object({
  public_key: v.string(),
  fingerprint: v.string(),
  created_at: Timestamp,
  successor: v.nullable(v.object({ public_key: v.string(), fingerprint: v.string(), created_at: Timestamp })),
  active: v.boolean(),
  current_key_fingerprint: v.string(),
  successor_key_fingerprint: v.nullable(v.string()),
  started_at: Timestamp,
  overlap_expires_at: Timestamp,
  fleet: v.nullable(v.object({ total: v.number(), successor: v.number(), current: v.number(), unseen: v.number() })),
});

export const ServerKeyPendingAgents = v.array(
  v.object({
    id: v.number(),
    hostname: v.nullable(v.string()),
    name: v.nullable(v.string()),
    last_seen_at: Timestamp,
    bucket: oneOf(["current", "unseen"] as const),
  }),
);

/** The agents' and the vault's part of GET /capabilities. */
export const AgentFeatures = v.object({
  agents: v.object({
    enrollment: v.boolean(),
    binaries_served: v.boolean(),
    versions: v.array(v.string()),
    platforms: v.array(v.string()),
    capabilities: v.array(v.string()),
  }),
  vault: v.object({ status: v.picklist(["healthy", "ephemeral", "degraded"]), key_source: v.picklist(["environment", "file", "none"]) }),
});
