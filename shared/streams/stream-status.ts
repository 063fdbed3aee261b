// GET /topology/ws/status and /discovery/ws/status (spec 6.4): the state of one process's socket for a
// stream. The process that holds the sockets (the sidecar's UI streams worker) is its source; the
// route that answers it is an HTTP handler like any other (functions/routes/stream-status.ts).
import * as v from "valibot";
import type { EventChannel } from "../verbs/verb.ts";

export const StreamStatus = v.object({
  stream: v.pipe(v.string(), v.description("The WebSocket path")),
  channel: v.pipe(v.string(), v.description("The NOTIFY channel it forwards")),
  accepting: v.pipe(v.boolean(), v.description("Whether new sockets are taken (false before start and while draining)")),
  listening: v.pipe(v.boolean(), v.description("Whether this process LISTENs on the channel")),
  connected_clients: v.pipe(v.number(), v.description("Authenticated sockets receiving events")),
  pending_clients: v.pipe(v.number(), v.description("Sockets still authenticating (waiting for a first-frame token)")),
  wss_required: v.pipe(v.boolean(), v.description("WS_REQUIRE_WSS: plain ws:// handshakes are closed 1008 wss_required")),
});
export type StreamStatus = v.InferOutput<typeof StreamStatus>;

/** Whoever holds a process's stream sockets answers for them. */
export interface StreamStatusSource {
  status(channel: EventChannel): StreamStatus;
}
