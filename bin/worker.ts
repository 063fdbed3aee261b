// The Workers entry (wrangler.toml `main`): the functions app on workerd. Configuration comes from the
// env bindings; the app is built once per isolate on the first request (env is stable per isolate).
// No lifespan here (spec 7.4.3): a worker is never drained or closed by the lifecycle guard, so the
// probes report "ready" whenever the dependencies answer. Migrations are applied by Node, never here.
import { vaultFromEnvironment } from "../shared/vault/key-config.ts";
import type { Vault } from "../shared/vault/vault.ts";
import type { ExecutionContext } from "hono";
import { cryptoRandom, systemClock } from "../shared/clock.ts";
import { ApiError, errorEnvelope } from "../shared/errors.ts";
import { type Config, parseConfig } from "../shared/config.ts";
import { HealthMonitor } from "../shared/health.ts";
import { IdentityState } from "../shared/identity/identity-state.ts";
import { jsonLogger } from "../shared/logger.ts";
import { createRateLimiter } from "../shared/ratelimit/create-limiter.ts";
import { createApp } from "../functions/app.ts";
import type { Deps } from "../functions/deps.ts";
import { edgeDatabase } from "../shared/db/edge-database.ts";
import { fetchOutboundHttp } from "../functions/outbound-fetch.ts";
import { StatusPageCache } from "../shared/status-pages/page-cache.ts";

// The VERSION file, substituted by scripts/build-edge.ts; absent when another bundler builds this file.
declare const __APP_VERSION__: string | undefined;
const buildVersion = typeof __APP_VERSION__ === "string" ? __APP_VERSION__ : undefined;

/** Bindings: plain variables and secrets are strings; HYPERDRIVE is a Hyperdrive binding. */
export type WorkerEnv = Record<string, unknown> & { HYPERDRIVE?: { connectionString?: unknown } };

type Handler = (request: Request, env: WorkerEnv, ctx: ExecutionContext) => Response | Promise<Response>;

let handler: Promise<Handler> | undefined;

/** The string bindings, with a Hyperdrive binding's connection string standing in for DATABASE_URL. */
function configFromBindings(env: WorkerEnv): Config {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === "string") vars[k] = v;
  const hyperdrive = env.HYPERDRIVE?.connectionString;
  if (typeof hyperdrive === "string" && hyperdrive !== "") vars.DATABASE_URL = hyperdrive;
  return parseConfig(vars, buildVersion);
}

/** Every request gets the same 500 envelope while the worker is misconfigured; logged once. */
function misconfigured(detail: string): Handler {
  jsonLogger("error").error("worker misconfigured", { detail });
  return () =>
    new Response(JSON.stringify(errorEnvelope(new ApiError("INTERNAL_SERVER_ERROR", detail))), {
      status: 500,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
}

async function build(env: WorkerEnv): Promise<Handler> {
  let config: Config;
  try {
    config = configFromBindings(env);
  } catch (e) {
    return misconfigured((e as Error).message);
  }
  if (!config.DATABASE_URL) {
    return misconfigured("The worker has no database: set the DATABASE_URL secret (a postgres:// URL) or bind Hyperdrive as HYPERDRIVE.");
  }
  // Every functions instance holds the installation's vault key; the edge has no data directory to keep one.
  let vault: Vault | undefined;
  try {
    vault = await vaultFromEnvironment(config);
  } catch (e) {
    return misconfigured((e as Error).message);
  }
  if (!vault)
    return misconfigured("The worker has no vault key: set the SVC_VAULT_KEY secret (base64 of 32 bytes, the same as the sidecar's).");
  const database = edgeDatabase(config.DATABASE_URL);
  const logger = jsonLogger(config.LOG_LEVEL);
  const deps: Deps = {
    config,
    database,
    // No Redis on the edge (ioredis needs Node sockets): no redis probe, and the rate-limit counters
    // live in the database, shared with every other instance.
    health: new HealthMonitor({ database, clock: systemClock, cacheMs: config.HEALTH_CACHE_MS }),
    rateLimiter: createRateLimiter({ database, clock: systemClock, logger }),
    identity: new IdentityState(cryptoRandom),
    clock: systemClock,
    random: cryptoRandom,
    logger,
    startedAt: systemClock.now(),
    vault,
    outbound: fetchOutboundHttp(),
    // No LISTEN on the edge: the status pages' answers are kept 1 s per isolate, and there are no live streams.
    statusPageCache: new StatusPageCache({ precompressed: false }),
    // No peerAddress: the rate limiter reads CF-Connecting-IP on workerd.
  };
  if (config.REDIS_URL) logger.warn("REDIS_URL is not used on the edge: rate-limit counters are kept in the database");
  const app = createApp(deps);
  return (request, env, ctx) => app.fetch(request, env, ctx);
}

export default {
  async fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> {
    handler ??= build(env);
    return (await handler)(request, env, ctx);
  },
};
