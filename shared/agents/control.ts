// How the functions half reaches the agent sockets (docs/architecture.md, the two halves: rows + NOTIFY). A verb that changes
// what a linked or enrolling agent must hear writes its rows and emits one AgentControlMessage on the
// `agent_control` channel; every sidecar LISTENs, and the one holding that agent's socket re-reads the
// rows and sends the frames. The message says only what to look at, never the data itself, so a
// notification that arrives late or twice does no harm.
import type { EventChannel } from "../verbs/verb.ts";

export const AGENT_CONTROL_CHANNEL = "agent_control" satisfies EventChannel;

export type AgentControlAction =
  /** approve or reject of a pending agent: its enroll socket hears the decision and closes. */
  | "decided"
  /** revoked (or deleted): any link is cut at once. */
  | "revoked"
  /** grants changed: `capabilities.set` with the full set. */
  | "capabilities"
  /** agents.pending_update set: the `update` frame. */
  | "update"
  /** queued rows in agent_probe_runs: `probe.assign` for each; runs it sent that were cancelled since: `probe.cancel`. */
  | "probe"
  /** a server-key rotation started or ended: reload the keys; `key.rotate` to every link (agent_id null). */
  | "server_key"
  /** an administrator asked the agent to rotate its device key: `key.rotate {kind: "device", request: true}`. */
  | "device_key"
  /** a TLS pin rotation started: `tls.pin.rotate` to every link (agent_id null). */
  | "tls_pin";

export interface AgentControlMessage {
  /** null only for server_key and tls_pin, which concern every link. */
  agent_id: number | null;
  action: AgentControlAction;
}

/** The live presence events on the `agents` channel, as /agents/stream forwards them (spec/catalogue.tsv, group agents). */
export type AgentStreamEventType = "enrolled" | "approved" | "rejected" | "revoked" | "connected" | "disconnected";
export interface AgentStreamEvent {
  agent_id: number;
  event_type: AgentStreamEventType;
  detail: Record<string, unknown> | null;
}

/** A link that has sent no heartbeat for this long is dead (docs/architecture.md, API contracts). */
export const PRESENCE_TTL_MS = 60_000;

export interface PresenceFields {
  status: string;
  link_owner: string | null;
  connected_since: Date | null;
  last_seen_at: Date | null;
}

/**
 * Online: active, a sidecar holds its link, and it was heard from within the presence TTL. The sidecar
 * writes last_seen_at at least every 20 s while a link lives, and clears link_owner when it ends; a
 * sidecar killed outright leaves link_owner behind, which the TTL then turns to offline.
 */
export function isOnline(row: PresenceFields, now: Date): boolean {
  return (
    row.status === "active" &&
    row.link_owner !== null &&
    row.connected_since !== null &&
    row.last_seen_at !== null &&
    now.getTime() - row.last_seen_at.getTime() <= PRESENCE_TTL_MS
  );
}
