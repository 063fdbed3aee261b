// The agent sockets' timers and limits (spec/catalogue.tsv, group agents, /tmp protocol): defaults are the
// protocol's figures; tests inject small ones so nothing waits on the real 10 s / 20 s / 60 s.
import type { Rule } from "../../shared/ratelimit/policy.ts";

export interface AgentGates {
  /** Per client address, for each endpoint: 20 per 60 s. */
  perIp: Rule;
  /** All addresses on /agents/enroll: 200 per 60 s (spec). */
  enrollGlobal: Rule;
  /** All addresses on /agents/link: AGENT_LINK_GLOBAL_RATE per 10 s (ours: a fleet must reconnect in minutes). */
  linkGlobal: Rule;
}

export interface AgentLinkOptions {
  /** This process among the sidecars: agents.link_owner. */
  instanceId: string;
  gates: AgentGates;
  /** Prefix of the gates' rate-limit keys (tests give each run its own). */
  gateKeyPrefix: string;
  handshakeTimeoutMs: number;
  helloTimeoutMs: number;
  pingIntervalMs: number;
  heartbeatTimeoutMs: number;
  rekeyIntervalMs: number;
  /** |now - hello.ts| beyond this: clock_skew. */
  clockSkewMs: number;
  /** A frame's ts this far ahead, or (non-telemetry) this far behind, is stale: 1008. */
  futureTsMs: number;
  staleTsMs: number;
  /** telemetry.host may be spooled for long: the reference accepts 30 days back. */
  telemetryStaleMs: number;
  /** The one shared tick that scans every session's deadlines. */
  tickMs: number;
  /** Acks of frames the agent does not spool (heartbeats, events) are coalesced into a ping this often; spooled frames are acknowledged at commit. */
  ackFlushMs: number;
  /** The write-behind batcher commits every flushMs, or at once when maxBatchFrames are waiting. */
  flushMs: number;
  maxBatchFrames: number;
  /** Frames waiting beyond this: the sending link is closed 1013 (the agent re-sends what was not acknowledged). */
  maxQueuedFrames: number;
  /** Enroll sockets re-read their decision this often (the safety net under agent_control). */
  decisionPollMs: number;
  /** Probe runs past their deadline are expired this often. */
  probeExpiryMs: number;
  /** The server keys are re-read this often (a rotation's notice may have been missed). */
  keyRefreshMs: number;
  /** Rollouts are swept this often: wave timeouts, agents linked on the new version, missed advances (docs/adr/0430). */
  rolloutSweepMs: number;
  /** Messages a socket may send while its hello is being answered. */
  maxEarlyMessages: number;
  /** The drain waits this long for peers to answer the close. */
  closeGraceMs: number;
}

/** Our own size check is 1008 for anything over a Noise message; ws's maxPayload sits just above it. */
export const MAX_MESSAGE_BYTES = 65535;
export const WS_MAX_PAYLOAD = MAX_MESSAGE_BYTES + 1024;

export function defaultAgentLinkOptions(instanceId: string, linkGlobalPer10s: number): AgentLinkOptions {
  return {
    instanceId,
    gates: {
      perIp: { limit: 20, windowMs: 60_000 },
      enrollGlobal: { limit: 200, windowMs: 60_000 },
      linkGlobal: { limit: linkGlobalPer10s, windowMs: 10_000 },
    },
    gateKeyPrefix: "agents",
    handshakeTimeoutMs: 10_000,
    helloTimeoutMs: 10_000,
    pingIntervalMs: 20_000,
    heartbeatTimeoutMs: 60_000,
    rekeyIntervalMs: 15 * 60_000,
    clockSkewMs: 60_000,
    futureTsMs: 60_000,
    staleTsMs: 10 * 60_000,
    telemetryStaleMs: 30 * 24 * 3600_000,
    tickMs: 1000,
    ackFlushMs: 500,
    flushMs: 75,
    maxBatchFrames: 500,
    maxQueuedFrames: 50_000,
    decisionPollMs: 5000,
    probeExpiryMs: 10_000,
    keyRefreshMs: 60_000,
    rolloutSweepMs: 15_000,
    maxEarlyMessages: 8,
    closeGraceMs: 2000,
  };
}
