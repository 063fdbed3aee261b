// What a process hands the app: built once from validated configuration by an entry
// (functions/node.ts, functions/worker.ts, sidecar/main.ts), never read from the environment below it.
import type { Context } from "hono";
import type { Clock, Random } from "../shared/clock.ts";
import type { Config } from "../shared/config.ts";
import type { DatabaseProvider, Db } from "../shared/db/database.ts";
import type { HealthMonitor } from "../shared/health.ts";
import type { CredentialCache } from "../shared/identity/credential-cache.ts";
import type { IdentityState } from "../shared/identity/identity-state.ts";
import type { Lifecycle } from "../shared/lifecycle.ts";
import type { Logger } from "../shared/logger.ts";
import type { Bucket } from "../shared/ratelimit/bucket.ts";
import type { RateLimitDecision, RateLimiter } from "../shared/ratelimit/limiter.ts";
import type { Actor } from "../shared/services/actor.ts";

/** Serves the documentation pages' scripts from installed packages (Node); absent on the edge. */
export type AssetLoader = (name: "scalar.js" | "redoc.js") => Promise<Uint8Array | undefined>;

export interface Deps {
  config: Config;
  database: DatabaseProvider;
  health: HealthMonitor;
  /** Present only where a lifespan drives the process (spec 7.4.3). */
  lifecycle?: Lifecycle;
  clock: Clock;
  random: Random;
  logger: Logger;
  startedAt: Date;
  /** Signing key and first-run caches of this process. */
  identity: IdentityState;
  assets?: AssetLoader;
  /**
   * Successful credential resolutions remembered for a few seconds (Node, while its LISTEN on the
   * `credentials` channel is up); absent on the edge and when CREDENTIAL_CACHE_S is 0.
   */
  credentialCache?: CredentialCache;
  /** Per-route rate limits (spec 8.1), counting in Redis or the database, never in memory. */
  rateLimiter: RateLimiter;
  /**
   * The socket peer of a request (Node provides it from the connection). Absent on workerd, where the
   * rate limiter reads CF-Connecting-IP instead; returning undefined means the peer is unknown.
   */
  peerAddress?: (c: Context) => string | undefined;
}

export type AppEnv = {
  Variables: {
    deps: Deps;
    db: Db;
    requestId: string;
    /** The client's address (trusted-proxy aware, spec 8.1); "unknown" when there is no socket. */
    clientIp?: string;
    /** True when the socket peer is inside TRUSTED_PROXIES (its forwarded headers count). */
    viaTrustedProxy?: boolean;
    /** The authenticated caller, when a valid credential was presented. */
    actor?: Actor;
    /** Why a presented credential was refused (said in the 401 of a protected route). */
    authError?: string;
    /** The rate limiter's answer for this request, started early (functions/middleware/rate-limit.ts). */
    rateLimit?: { pending: Promise<RateLimitDecision>; bucket: Bucket };
  };
};
