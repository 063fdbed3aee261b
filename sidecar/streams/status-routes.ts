// [topology-ws, discovery-ws] GET /topology/ws/status and GET /discovery/ws/status (spec 6.4): the
// state of this process's socket for that stream, over HTTP. Served by the sidecar, which holds the
// sockets; a functions-only process does not register them.
import type { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../functions/deps.ts";
import { route } from "../../functions/openapi/route.ts";
import type { EventChannel } from "../../shared/services/verb.ts";
import { streamByChannel } from "./catalogue.ts";

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

export function streamStatusRoutes(app: Hono<AppEnv>, status: (channel: EventChannel) => StreamStatus): void {
  for (const channel of ["topology", "discovery"] as const) {
    const { scope } = streamByChannel(channel);
    route(
      app,
      {
        method: "get", path: `/api/v1/${channel}/ws/status`, tag: `${channel}-ws`, scope,
        summary: `State of the ${channel} live stream in this process: accepting, listening, connected clients`,
        response: { schema: StreamStatus },
      },
      (c) => c.json(status(channel)),
    );
  }
}
