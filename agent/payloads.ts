// The payloads of the frames the agent sends most (hello, heartbeat, telemetry.host), built from plain
// numbers and facts. The reference agent fills them from this machine; a load generator (tests/bench)
// calls the same functions with numbers of its own, so a simulated fleet sends exactly these frames.
// Typed against shared/agents/payloads.ts, the schemas the sidecar parses them with.
import { MAX_FRAME_BYTES } from "../shared/agents/frames.ts";
import type { HostFacts } from "./host.ts";
import type { AgentPayloadInput, ReadinessPayload, TelemetrySummaryPayload } from "../shared/agents/payloads.ts";

// The build's version when scripts/build-agent.ts bundled it (esbuild `define`: the version of the
// layout it was built into, which an update compares against); a checkout's agent says 0.1.0-ts.
declare const __SVC_AGENT_VERSION__: string | undefined;
export const AGENT_VERSION = typeof __SVC_AGENT_VERSION__ === "string" && __SVC_AGENT_VERSION__ ? __SVC_AGENT_VERSION__ : "0.1.0-ts";
/** 2: capabilities.set carries {enabled, config}, so the agent learns interval_s and max_concurrent. */
export const CAPABILITY_SCHEMA = 2;

export interface HelloFacts extends HostFacts {
  device_pk: string;
  readiness: ReadinessPayload[];
  spool_depth: number;
  agent_version?: string;
}

export function buildHello(f: HelloFacts): AgentPayloadInput<"hello"> {
  return {
    device_pk: f.device_pk,
    hostname: f.hostname,
    machine_id_hash: f.machine_id_hash,
    os: f.os,
    os_version: f.os_version,
    arch: f.arch,
    agent_version: f.agent_version ?? AGENT_VERSION,
    primary_macs: f.primary_macs.slice(0, 32),
    readiness: f.readiness.slice(0, 32),
    networks: f.networks.slice(0, 64),
    spool_depth: f.spool_depth,
    capability_schema: CAPABILITY_SCHEMA,
    tls_pin_kind: null,
  };
}

export function buildHeartbeat(
  spool: { spool_depth: number; spool_bytes: number } & Partial<AgentPayloadInput<"heartbeat">>,
): AgentPayloadInput<"heartbeat"> {
  return { ...spool };
}

export interface TelemetryParts {
  /** 32 hex; a re-sent sample keeps its id. */
  sample_id: string;
  collected_at: Date;
  summary: Required<{ [K in keyof TelemetrySummaryPayload]: number | null }>;
  filesystems?: Record<string, unknown>[];
  disks?: Record<string, unknown>[];
  interfaces?: Record<string, unknown>[];
  temperatures?: Record<string, unknown>[];
  /** Set when a collector failed this round. */
  degraded?: boolean;
}

/** Room left for the envelope {v, type, seq, ts} around the payload. */
const ENVELOPE_BYTES = 128;
const LIST_CAPS = { filesystems: 128, disks: 128, interfaces: 128, temperatures: 256 } as const;
type ListName = keyof typeof LIST_CAPS;

const size = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * telemetry.host with its lists capped as the schema caps them, then trimmed (the longest list halved,
 * repeatedly) until the frame fits MAX_FRAME_BYTES; the summary is never trimmed.
 */
export function buildTelemetryHost(p: TelemetryParts, maxFrameBytes = MAX_FRAME_BYTES): AgentPayloadInput<"telemetry.host"> {
  const lists: Record<ListName, Record<string, unknown>[]> = {
    filesystems: (p.filesystems ?? []).slice(0, LIST_CAPS.filesystems),
    disks: (p.disks ?? []).slice(0, LIST_CAPS.disks),
    interfaces: (p.interfaces ?? []).slice(0, LIST_CAPS.interfaces),
    temperatures: (p.temperatures ?? []).slice(0, LIST_CAPS.temperatures),
  };
  const payload = () => ({
    schema: 1 as const,
    sample_id: p.sample_id,
    status: p.degraded ? ("degraded" as const) : ("healthy" as const),
    collected_at: p.collected_at.toISOString(),
    summary: p.summary,
    ...lists,
  });
  for (let i = 0; i < 64 && size(payload()) + ENVELOPE_BYTES > maxFrameBytes; i++) {
    const longest = (Object.keys(lists) as ListName[]).reduce((a, b) => (size(lists[b]) > size(lists[a]) ? b : a));
    lists[longest] = lists[longest].slice(0, Math.floor(lists[longest].length / 2));
  }
  return payload();
}
