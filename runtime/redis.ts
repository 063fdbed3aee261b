// The Redis client of a Node process. Every command is bounded (docs/adr/0345): it fails fast while
// Redis is down (no offline queue, no retry on reconnect) and after REDIS_COMMAND_TIMEOUT_MS while Redis
// is connected but does not answer (a partition, a stalled server), so a Redis outage degrades the
// service instead of stalling requests; the client reconnects by itself.
import { Redis } from "ioredis";
import type { Logger } from "../shared/logger.ts";

/** The bound of one Redis command: a healthy Redis on the same network answers in about a millisecond. */
export const REDIS_COMMAND_TIMEOUT_MS = 100;

export function openRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    // A command that was out when the connection dropped fails then, instead of waiting for a reconnect.
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let up = true;
  redis.on("error", (e: Error) => {
    if (up) logger.warn("redis unavailable", { error: e.message });
    up = false;
  });
  redis.on("ready", () => {
    if (!up) logger.info("redis available again");
    up = true;
  });
  return redis;
}
