// Serves a fetch handler on Node and drives the lifespan. It listens while still starting (so startupz
// can answer 503), the entry marks it ready once initialised; on SIGTERM or SIGINT
// the state turns to stopping (readyz 503, writes 503 SERVER_DRAINING), the listener stays open for the
// drain window (DRAIN_WINDOW_S, docs/adr/0346) answering every new connection with Connection: close,
// requests in flight finish and commit, then connections close, resources are released and the process
// exits 0. An HTTPS listener (SVC_TLS=on, runtime/tls/) joins the same lifespan through attachToLifespan
// and drains with it.
import type { Server, ServerResponse } from "node:http";
import type { Server as HttpsServer } from "node:https";
import { serve } from "@hono/node-server";
import { answerClientError } from "./client-error.ts";
import type { NodeRuntime } from "./node-deps.ts";

type AnyServer = Server | HttpsServer;

interface LifespanState {
  servers: Set<AnyServer>;
  open: Set<ServerResponse>;
  stopping: boolean;
}

const lifespans = new WeakMap<NodeRuntime, LifespanState>();

/** Counts the server's requests as in flight and closes it with the others on drain. */
export function attachToLifespan(runtime: NodeRuntime, server: AnyServer): void {
  const state = lifespans.get(runtime);
  if (!state) throw new Error("attachToLifespan: serveWithLifespan has not run for this runtime");
  track(runtime, state, server);
}

function track(runtime: NodeRuntime, state: LifespanState, server: AnyServer): void {
  const { lifecycle } = runtime.deps;
  state.servers.add(server);
  server.on("clientError", answerClientError);
  // Prepended so it runs before the app's listener, which may write a ready answer synchronously.
  // A request counts as in flight until its response is fully written, not merely until the handler
  // returns: the drain must not cut a committed write's answer off.
  server.prependListener("request", (_req, res: ServerResponse) => {
    const leave = lifecycle.enter();
    state.open.add(res);
    if (state.stopping) res.setHeader("Connection", "close");
    res.once("close", () => {
      state.open.delete(res);
      leave();
    });
  });
}

/**
 * The timeouts of both listeners (HTTP here, HTTPS in tls/https-server.ts). Node looks for expired
 * requests only every connectionsCheckingInterval (30 s by default). An idle keep-alive connection is kept
 * KEEP_ALIVE_TIMEOUT_S (65 s), not Node's 5 s: a client or proxy that reuses a connection it believes open
 * (nginx and cloud load balancers keep theirs 60 s; a busy client's own idle timer fires late) otherwise
 * meets a socket the server closed under it ("other side closed", seen in a loaded CI run).
 */
export function serverTimeouts(config: { HEADERS_TIMEOUT_S: number; KEEP_ALIVE_TIMEOUT_S: number }) {
  const headersTimeout = config.HEADERS_TIMEOUT_S * 1000;
  return {
    headersTimeout,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_S * 1000,
    connectionsCheckingInterval: Math.min(30_000, Math.max(250, headersTimeout / 4)),
  };
}

export async function serveWithLifespan(
  runtime: NodeRuntime,
  fetch: (req: Request, env?: unknown) => Response | Promise<Response>,
): Promise<Server> {
  const { deps } = runtime;
  const { config, lifecycle, logger } = deps;
  const server = serve({
    fetch,
    port: config.PORT,
    hostname: config.HOST,
    serverOptions: serverTimeouts(config),
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const state: LifespanState = { servers: new Set(), open: new Set(), stopping: false };
  lifespans.set(runtime, state);
  track(runtime, state, server);
  const address = server.address();
  logger.info("listening", { port: typeof address === "object" && address ? address.port : config.PORT, version: config.version });

  const drain = async (signal: string) => {
    if (state.stopping) return;
    state.stopping = true;
    const deadline = Date.now() + config.DRAIN_TIMEOUT_S * 1000;
    const remaining = () => Math.max(0, deadline - Date.now());
    const windowMs = Math.min(config.DRAIN_WINDOW_S * 1000, remaining());
    lifecycle.beginStopping();
    // From here every answer says Connection: close, so clients stop reusing their sockets; a socket
    // with no request on it is closed now, one with a request once its answer is written.
    for (const res of state.open) if (!res.headersSent) res.setHeader("Connection", "close");
    for (const s of state.servers) s.closeIdleConnections();
    logger.info("draining", { signal, in_flight: lifecycle.inFlight, window_ms: windowMs });
    // A load balancer keeps sending new connections here until it has seen readyz 503 (or been told):
    // the listener stays open for the window so each of them is answered (writes 503 SERVER_DRAINING,
    // every answer Connection: close) instead of being reset when it closes. Only then does waiting
    // for the requests in flight begin.
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    await lifecycle.waitIdle(remaining());
    // Workers first: the WebSocket streams hold upgraded sockets that server.close() would otherwise
    // wait on forever (closeAllConnections does not reach them). runtime.close() repeats it harmlessly.
    await runtime.background.stopAll();
    const cutOffs = await Promise.all([...state.servers].map((s) => closeServer(s, remaining(), () => lifecycle.inFlight)));
    const cutOff = Math.max(0, ...cutOffs);
    await runtime.close().catch((e: unknown) => logger.error("close failed", { error: String(e) }));
    const stopped = { signal, drained: cutOff === 0, cut_off: cutOff };
    if (cutOff === 0) logger.info("stopped", stopped);
    else logger.warn("stopped", stopped);
    process.exit(cutOff === 0 ? 0 : 1);
  };
  process.once("SIGTERM", () => void drain("SIGTERM"));
  process.once("SIGINT", () => void drain("SIGINT"));
  return server;
}

/**
 * Stops listening and waits, up to `timeoutMs`, for the remaining sockets to close by themselves: each
 * request still arriving on one is answered (Connection: close) before Node ends it. Whatever is left at
 * the deadline is destroyed (not awaited: a socket outside Node's HTTP connection list, such as a refused
 * upgrade whose peer never closes, would hold it; the process exits regardless). Resolves with the number
 * of requests that were in flight then (0: none cut off).
 */
async function closeServer(server: AnyServer, timeoutMs: number, inFlight: () => number): Promise<number> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([
    closed.then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (inTime) return 0;
  const cutOff = inFlight();
  server.closeAllConnections();
  return cutOff;
}
