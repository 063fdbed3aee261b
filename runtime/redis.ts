// The Redis client of a Node process. Commands fail fast while Redis is down (no offline queue), so a
// Redis outage degrades the service instead of stalling requests; the client reconnects by itself.
import { Redis } from "ioredis";
import type { Logger } from "../shared/logger.ts";

export function openRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
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
