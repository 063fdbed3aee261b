// Serves a fetch handler on Node and drives the lifespan. It listens while still starting (so startupz
// can answer 503), the entry marks it ready once initialised; on SIGTERM or SIGINT
// the state turns to stopping (readyz 503, writes 503 SERVER_DRAINING), requests in flight finish and
// commit, then connections close, resources are released and the process exits 0.
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import type { NodeRuntime } from "./node-deps.ts";

export async function serveWithLifespan(runtime: NodeRuntime, fetch: (req: Request, env?: unknown) => Response | Promise<Response>): Promise<Server> {
  const { deps } = runtime;
  const { config, lifecycle, logger } = deps;
  const server = serve({ fetch, port: config.PORT, hostname: config.HOST }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  // A request counts as in flight until its response is fully written, not merely until the handler
  // returns: the drain must not cut a committed write's answer off.
  server.on("request", (_req, res) => {
    const leave = lifecycle.enter();
    res.once("close", leave);
  });
  const address = server.address();
  logger.info("listening", { port: typeof address === "object" && address ? address.port : config.PORT, version: config.version });

  let stopping = false;
  const drain = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    lifecycle.beginStopping();
    logger.info("draining", { signal, in_flight: lifecycle.inFlight });
    const clean = await lifecycle.waitIdle(config.DRAIN_TIMEOUT_S * 1000);
    // Background tasks first: the WebSocket streams hold upgraded sockets that server.close() would
    // otherwise wait on forever (closeAllConnections does not reach them). runtime.close() repeats it harmlessly.
    await runtime.background.stopAll();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await runtime.close().catch((e: unknown) => logger.error("close failed", { error: String(e) }));
    logger.info("stopped", { signal, drained: clean });
    process.exit(clean ? 0 : 1);
  };
  process.once("SIGTERM", () => void drain("SIGTERM"));
  process.once("SIGINT", () => void drain("SIGINT"));
  return server;
}
