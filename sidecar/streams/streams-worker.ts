// The UI live streams worker (spec 4.5, 5.5): plain `ws` with noServer on the HTTP server's upgrade
// event (docs/architecture.md, platform notes). Made before the server starts, it is also the source of the stream status routes
// (functions/routes/stream-status.ts) and of the server-sent events (`events`, for functions/routes/events.ts);
// start() takes its paths' upgrades and LISTENs; stop() (the drain) closes every socket 1001, ends every
// event stream and ends LISTEN.
import { WebSocketServer } from "ws";
import { ApiError } from "../../shared/errors.ts";
import { CidrSet } from "../../shared/net/cidr.ts";
import type { EventChannel } from "../../shared/verbs/verb.ts";
import type { EventFeed } from "../../shared/streams/event-feed.ts";
import { STREAMS, streamByChannel } from "../../shared/streams/catalogue.ts";
import type { StreamStatus, StreamStatusSource } from "../../shared/streams/stream-status.ts";
import { databaseListener } from "../../runtime/listen.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import { refuseUpgrade, type UpgradeRouter } from "../../runtime/upgrade-router.ts";
import type { Worker } from "../../runtime/worker.ts";
import { type ClientEnv, StreamClient } from "./client.ts";
import { ChannelHub } from "./hub.ts";
import { DEFAULT_STREAM_OPTIONS, type StreamOptions } from "./options.ts";
import { SseFeed } from "./sse-feed.ts";
import { DEFAULT_SSE_OPTIONS, type SseOptions } from "./sse-options.ts";

/** How long the drain waits for peers to answer the 1001 close before cutting them off. */
const CLOSE_GRACE_MS = 2000;

export interface StreamsWorker extends Worker, StreamStatusSource {
  /** The same events as server-sent events (GET /events/stream). */
  events: EventFeed;
}

export function streamsWorker(
  runtime: Pick<NodeRuntime, "deps" | "database">,
  upgrades: UpgradeRouter,
  overrides: Partial<StreamOptions> = {},
  sseOverrides: Partial<SseOptions> = {},
): StreamsWorker {
  const { deps } = runtime;
  const options = { ...DEFAULT_STREAM_OPTIONS, ...overrides };
  const hub = new ChannelHub({
    listen: databaseListener(runtime.database),
    clock: deps.clock,
    logger: deps.logger,
    retryMs: options.listenRetryMs,
  });
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
  const events = new SseFeed(
    {
      hub,
      random: deps.random,
      streams: STREAMS,
      users: env.users,
      maxConnectionsPerUser: options.maxConnectionsPerUser,
      revalidateMs: options.revalidateMs,
    },
    { ...DEFAULT_SSE_OPTIONS, ...sseOverrides },
  );
  let accepting = false;
  let ticker: NodeJS.Timeout | undefined;

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

  const start = (): void => {
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayloadBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
    for (const def of STREAMS)
      upgrades.add(def.path, (req, socket, head) => {
        if (!accepting || deps.lifecycle.state !== "ready")
          return refuseUpgrade(
            socket,
            new ApiError("SERVER_DRAINING", "This process is not taking new streams; reconnect shortly.", {}, { "Retry-After": "5" }),
          );
        wss.handleUpgrade(req, socket, head, (ws) => new StreamClient(ws, def, env, req));
      });
    hub.start(STREAMS.map((s) => s.channel));
    events.start();
    ticker = setInterval(() => {
      const now = performance.now();
      for (const client of env.clients) client.tick(now);
    }, options.pingIntervalMs);
    ticker.unref();
    accepting = true;
  };

  const stop = async (): Promise<void> => {
    accepting = false;
    clearInterval(ticker);
    events.stop();
    await Promise.all([...env.clients].map((c) => c.closeAndWait(1001, "going_away", CLOSE_GRACE_MS)));
    await hub.stop();
  };

  return { name: "ui-streams", status, events, start, stop };
}
