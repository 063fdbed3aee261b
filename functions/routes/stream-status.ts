// [topology-ws, discovery-ws] GET /topology/ws/status and GET /discovery/ws/status (spec 6.4): the state
// of this process's socket for that stream, over HTTP. Registered only by the process that holds the
// sockets (the sidecar, bin/start.ts), which hands in its streams worker as the source.
import type { Hono } from "hono";
import { streamByChannel } from "../../shared/streams/catalogue.ts";
import { StreamStatus, type StreamStatusSource } from "../../shared/streams/stream-status.ts";
import type { AppEnv } from "../deps.ts";
import { route } from "../openapi/route.ts";

export function streamStatusRoutes(app: Hono<AppEnv>, source: StreamStatusSource): void {
  for (const channel of ["topology", "discovery"] as const) {
    const { scope } = streamByChannel(channel);
    route(
      app,
      {
        method: "get",
        path: `/api/v1/${channel}/ws/status`,
        tag: `${channel}-ws`,
        scope,
        summary: `State of the ${channel} live stream in this process: accepting, listening, connected clients`,
        response: { schema: StreamStatus },
      },
      (_c, { reply }) => reply(source.status(channel)),
    );
  }
}
