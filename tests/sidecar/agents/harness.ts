// Sidecars for the agent socket tests: the real server (serveWithLifespan on a loopback port), real
// PostgreSQL and Redis, the agents worker with small timers. Several sidecars may share one database
// (each its own runtime and instance id), as a split deployment runs them.
import type { Server } from "node:http";
import postgres from "postgres";
import { createApp } from "../../../functions/app.ts";
import { parseConfig } from "../../../shared/config.ts";
import { currentServerPublicKey } from "../../../shared/verbs/agents/server-key.ts";
import { systemContext, type VerbContext } from "../../../shared/verbs/verb-context.ts";
import { type NodeRuntime, openRuntime } from "../../../runtime/node-deps.ts";
import { serveWithLifespan } from "../../../runtime/serve.ts";
import { upgradeRouter } from "../../../runtime/upgrade-router.ts";
import { type AgentsWorker, type AgentsWorkerOverrides, agentsWorker } from "../../../sidecar/agents/agents-worker.ts";
import { REDIS_URL, TEST_VAULT_KEY } from "../../helpers/env.ts";

export interface Sidecar {
  runtime: NodeRuntime;
  server: Server;
  worker: AgentsWorker;
  ctx: VerbContext;
  /** ws://127.0.0.1:port */
  ws: string;
  stop(): Promise<void>;
}

/** Small timers; gates generous unless a test narrows them (each run its own key prefix). */
export const TEST_OPTIONS: AgentsWorkerOverrides = {
  handshakeTimeoutMs: 400,
  helloTimeoutMs: 400,
  pingIntervalMs: 300,
  heartbeatTimeoutMs: 1500,
  tickMs: 50,
  ackFlushMs: 50,
  flushMs: 20,
  decisionPollMs: 300,
  probeExpiryMs: 200,
  closeGraceMs: 500,
  gates: { perIp: { limit: 10_000, windowMs: 60_000 } },
};

export async function startSidecar(databaseUrl: string, overrides: AgentsWorkerOverrides = {}): Promise<Sidecar> {
  const config = parseConfig(
    {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "error",
      DB_POOL_MAX: "4",
      HEALTH_CACHE_MS: "0",
      SVC_VAULT_KEY: TEST_VAULT_KEY,
    },
    "0.0.0-test",
  );
  const runtime = await openRuntime(config);
  const app = createApp(runtime.deps);
  const upgrades = upgradeRouter();
  const prefix = `agents-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const worker = agentsWorker(runtime, upgrades, {
    ...TEST_OPTIONS,
    gateKeyPrefix: prefix,
    ...overrides,
    gates: { ...TEST_OPTIONS.gates, ...overrides.gates },
  });
  const server = await serveWithLifespan(runtime, app.fetch);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  runtime.deps.lifecycle.markReady();
  upgrades.attach(server);
  await runtime.background.start(worker);
  return {
    runtime,
    server,
    worker,
    ctx: systemContext({ db: runtime.database.db, clock: runtime.deps.clock, random: runtime.deps.random }),
    ws: `ws://127.0.0.1:${port}`,
    stop: async () => {
      await runtime.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}

export async function serverPublicKey(s: Sidecar): Promise<string> {
  return (await currentServerPublicKey(s.runtime.database.db, s.runtime.deps.vault, new Date())).public_key;
}

export function sqlClient(url: string): postgres.Sql {
  return postgres(url, { max: 2, onnotice: () => {} });
}

/** Waits (bounded) until `check` holds. */
export async function until<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
