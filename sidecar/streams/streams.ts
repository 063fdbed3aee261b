// The UI live streams of the sidecar (spec 4.5, 5.5): plain `ws` with noServer on the HTTP server's
// upgrade event (DESIGN.md 7). `uiStreams` is called before the server starts (it registers the two
// HTTP status routes); `start(server)` attaches to the server once the process is ready and returns
// the background task whose stop (the drain) closes every socket 1001 and ends LISTEN.
import type { Server } from "node:http";
import type { Hono } from "hono";
import { WebSocketServer } from "ws";
import type { AppEnv } from "../../functions/deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { CidrSet } from "../../shared/net/cidr.ts";
import type { EventChannel } from "../../shared/services/verb.ts";
import type { BackgroundTask } from "../../runtime/background.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import { databaseListener } from "../telemetry/listen.ts";
import { STREAMS, streamByChannel } from "./catalogue.ts";
import { type ClientEnv, StreamClient } from "./client.ts";
import { ChannelHub } from "./hub.ts";
import { DEFAULT_STREAM_OPTIONS, type StreamOptions } from "./options.ts";
import { type StreamStatus, streamStatusRoutes } from "./status-routes.ts";
import { refuseUpgrade, upgradeRouter } from "./upgrade-router.ts";

/** How long the drain waits for peers to answer the 1001 close before cutting them off. */
const CLOSE_GRACE_MS = 2000;

export interface UiStreams {
  status(channel: EventChannel): StreamStatus;
  /** Takes upgrades on `server` and starts LISTEN; the task it returns is the drain's to stop. */
  start(server: Server): BackgroundTask;
}

export function uiStreams(app: Hono<AppEnv>, runtime: NodeRuntime, overrides: Partial<StreamOptions> = {}): UiStreams {
  const { deps } = runtime;
  const options = { ...DEFAULT_STREAM_OPTIONS, ...overrides };
  const hub = new ChannelHub({ listen: databaseListener(runtime.database), clock: deps.clock, logger: deps.logger, retryMs: options.listenRetryMs });
  const env: ClientEnv = {
    deps,
    db: runtime.database.db,
    hub,
    options,
    trustedProxies: new CidrSet(deps.config.TRUSTED_PROXIES),
    clients: new Set(),
    users: new Map(),
    pending: { count: 0 },
  };
  let accepting = false;

  const status = (channel: EventChannel): StreamStatus => {
    const def = streamByChannel(channel);
    const mine = [...env.clients].filter((c) => c.def === def);
    return {
      stream: def.path,
      channel,
      accepting,
      listening: hub.listening(channel),
      connected_clients: mine.filter((c) => c.state === "open").length,
      pending_clients: mine.filter((c) => c.state === "handshake" || c.state === "awaiting_token").length,
      wss_required: deps.config.WS_REQUIRE_WSS,
    };
  };
  streamStatusRoutes(app, status);

  const start = (server: Server): BackgroundTask => {
    const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes, perMessageDeflate: false, clientTracking: false });
    const router = upgradeRouter(server);
    for (const def of STREAMS)
      router.add(def.path, (req, socket, head) => {
        if (!accepting || deps.lifecycle.state !== "ready")
          return refuseUpgrade(socket, new ApiError("SERVER_DRAINING", "This process is not taking new streams; reconnect shortly.", {}, { "Retry-After": "5" }));
        wss.handleUpgrade(req, socket, head, (ws) => new StreamClient(ws, def, env, req));
      });
    hub.start(STREAMS.map((s) => s.channel));
    const ticker = setInterval(() => {
      const now = performance.now();
      for (const client of env.clients) client.tick(now);
    }, options.pingIntervalMs);
    ticker.unref();
    accepting = true;
    return {
      name: "ui-streams",
      stop: async () => {
        accepting = false;
        clearInterval(ticker);
        await Promise.all([...env.clients].map((c) => c.closeAndWait(1001, "going_away", CLOSE_GRACE_MS)));
        await hub.stop();
      },
    };
  };

  return { status, start };
}
