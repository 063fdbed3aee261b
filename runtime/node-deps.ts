// Builds the deps of a Node process (all-in-one, functions-only or sidecar-only) from its configuration.
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Redis } from "ioredis";
import { cryptoRandom, systemClock } from "../shared/clock.ts";
import { type Config, parseConfig } from "../shared/config.ts";
import type { Deps } from "../shared/deps.ts";
import type { AgentBinarySource } from "../shared/verbs/agents/binaries.ts";
import { HealthMonitor } from "../shared/health.ts";
import { CredentialCache } from "../shared/identity/credential-cache.ts";
import { IdentityState } from "../shared/identity/identity-state.ts";
import { Lifecycle } from "../shared/lifecycle.ts";
import { jsonLogger, type Logger } from "../shared/logger.ts";
import { createRateLimiter } from "../shared/ratelimit/create-limiter.ts";
import { nodeHostResolver, nodeOutboundHttp } from "../net/outbound-http.ts";
import { nodeMailer } from "../net/smtp-mailer.ts";
import { nodeAcmeIssuer } from "./acme/issuer.ts";
import { systemContext } from "../shared/verbs/verb-context.ts";
import { sharpResizer } from "./image-resizer.ts";
import { nodeBackupStore } from "./backups/node-backup-store.ts";
import { nodeCveFeedFiles } from "./cve/feed-files.ts";
import { directoryBinaries } from "./agent-binaries.ts";
import { packageAssets } from "./assets.ts";
import { loadWebApp } from "./web-app.ts";
import { type NodeDatabase, openDatabase } from "./database.ts";
import { listenForCredentialChanges } from "./credential-invalidation.ts";
import { listenForStatusPageChanges } from "./status-page-invalidation.ts";
import { StatusPageCache } from "../shared/status-pages/page-cache.ts";
import { PageEventHub } from "../shared/status-pages/page-events.ts";
import { nodePeerAddress } from "./peer-address.ts";
import { RedisRateLimitStore } from "./ratelimit-redis.ts";
import { openRedis } from "./redis.ts";
import { CircuitBreaker } from "./redis-breaker.ts";
import { openVault, vaultKeyPath } from "./vault-key.ts";
import { nodeVaultKeyFile } from "./vault-key-file.ts";
import { NodeTls } from "./tls/node-tls.ts";
import { Workers } from "./worker.ts";

export interface NodeRuntime {
  /** The process's deps; on Node with a lifespan and the socket peer of a request (for the app). */
  deps: Deps & { lifecycle: Lifecycle; peerAddress: typeof nodePeerAddress };
  database: NodeDatabase;
  redis?: Redis;
  /** Every Redis call of the process goes through it (docs/adr/0345); present with redis. */
  redisBreaker?: CircuitBreaker;
  /** The process's workers (the sidecar's, the credential cache's LISTEN), stopped before the database closes. */
  background: Workers;
  close(): Promise<void>;
}

function versionFile(): string | undefined {
  try {
    return readFileSync(new URL("../VERSION", import.meta.url), "utf8");
  } catch {
    return undefined;
  }
}

/** Parses the environment; on a bad value prints one line naming the variable and exits 1. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return parseConfig(env, versionFile());
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
}

export interface RuntimeOptions {
  /** Only the all-in-one process may generate its vault key into DATA_DIR (runtime/vault-key.ts). */
  vaultKeyFile?: boolean;
  /** The entries (`npm start`): with AGENT_BINARY_DIR unset, serve this version's builds from dist/agent-builds when built. */
  defaultAgentBuilds?: boolean;
}

/** Where `npm run build:agent` writes by default (scripts/build-agent.ts). */
export const BUILT_AGENTS_DIR = fileURLToPath(new URL("../dist/agent-builds", import.meta.url));

/** AGENT_BINARY_DIR's builds; else, for the entries, this version's own builds when they have been built. */
export function agentBinarySource(
  config: Config,
  logger: Logger,
  options: RuntimeOptions,
  built = BUILT_AGENTS_DIR,
): AgentBinarySource | undefined {
  const releaseKey = config.AGENT_RELEASE_PUBLIC_KEY;
  if (config.AGENT_BINARY_DIR) return directoryBinaries(config.AGENT_BINARY_DIR, logger, { releaseKey });
  if (!options.defaultAgentBuilds || !existsSync(join(built, config.version))) return undefined;
  logger.info("serving this version's agent builds from dist/agent-builds (AGENT_BINARY_DIR is unset)", {
    dir: built,
    version: config.version,
  });
  return directoryBinaries(built, logger, { releaseKey, version: config.version });
}

export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<NodeRuntime> {
  const logger = jsonLogger(config.LOG_LEVEL);
  const vault = await openVault(config, { keyFile: options.vaultKeyFile ?? false });
  const lifecycle = new Lifecycle();
  const database = await openDatabase(config, logger);
  const redis = config.REDIS_URL ? openRedis(config.REDIS_URL, logger) : undefined;
  const redisBreaker = redis ? new CircuitBreaker({ name: "redis", clock: systemClock, logger }) : undefined;
  const health = new HealthMonitor({
    database: database.provider,
    probeDatabase: database.probe,
    // While the breaker is open the probe reports Redis down without asking it.
    redis: redis && redisBreaker ? { ping: () => redisBreaker.run(() => redis.ping()) } : undefined,
    lifecycle,
    clock: systemClock,
    cacheMs: config.HEALTH_CACHE_MS,
  });
  const credentialCache = config.CREDENTIAL_CACHE_S > 0 ? new CredentialCache({ ttlMs: config.CREDENTIAL_CACHE_S * 1000 }) : undefined;
  const statusPageCache = new StatusPageCache();
  const statusPageEvents = new PageEventHub(statusPageCache);
  // The live streams end when the drain begins: they never finish by themselves, and the drain waits for every answer.
  lifecycle.onStopping(() => statusPageEvents.closeAll());
  const outbound = nodeOutboundHttp();
  const webApp = await loadWebApp(config.WEB_DIR);
  const agentBinaries = agentBinarySource(config, logger, options);
  const deps = {
    config,
    database: database.provider,
    health,
    lifecycle,
    clock: systemClock,
    random: cryptoRandom,
    logger,
    startedAt: systemClock.now(),
    identity: new IdentityState(cryptoRandom),
    ...(credentialCache ? { credentialCache } : {}),
    statusPageCache,
    statusPageEvents,
    assets: packageAssets(),
    ...(webApp ? { webApp } : {}),
    // Redis when configured (and not overridden by RATE_LIMIT_STORE=database), else the database.
    rateLimiter: createRateLimiter({
      database: database.provider,
      clock: systemClock,
      logger,
      store: redis && config.RATE_LIMIT_STORE === "redis" ? new RedisRateLimitStore(redis, { breaker: redisBreaker }) : undefined,
    }),
    peerAddress: nodePeerAddress,
    vault,
    // Only a key this process keeps in DATA_DIR can be rotated in place; SVC_VAULT_KEY is the operator's.
    ...(vault.source === "file" ? { vaultKeyFile: nodeVaultKeyFile(config.DATA_DIR) } : {}),
    outbound,
    resolveHost: nodeHostResolver(),
    mailer: nodeMailer(),
    images: sharpResizer(),
    acme: nodeAcmeIssuer({
      config,
      vault,
      logger,
      outbound,
      context: () => systemContext({ db: database.db, clock: systemClock, random: cryptoRandom, vault, outbound }),
    }),
    backups: nodeBackupStore({
      dir: config.BACKUP_DIR ?? `${config.DATA_DIR}/backups`,
      ...(database.sql && config.DATABASE_URL ? { postgres: { url: config.DATABASE_URL, sql: database.sql } } : {}),
      ...(database.pglite ? { pglite: database.pglite } : {}),
      // Only a snapshot the operator asked to bundle the key with reads it.
      vaultKey: async () => config.SVC_VAULT_KEY ?? (await readFile(vaultKeyPath(config.DATA_DIR), "utf8").catch(() => null)),
    }),
    cveFeed: nodeCveFeedFiles(),
    // Reloads the HTTPS listener the entry starts once migrated (runtime/tls/); absent when TLS is off.
    ...(config.SVC_TLS ? { tls: new NodeTls(logger) } : {}),
    ...(agentBinaries ? { agentBinaries } : {}),
  };
  const background = new Workers(logger);
  if (credentialCache) void background.start(listenForCredentialChanges(database, credentialCache, logger, config.DATABASE_URL));
  void background.start(listenForStatusPageChanges(database, statusPageCache, logger, config.DATABASE_URL));
  const close = async () => {
    await background.stopAll();
    redis?.disconnect();
    await database.provider.close();
  };
  return { deps, database, ...(redis && redisBreaker ? { redis, redisBreaker } : {}), background, close };
}
