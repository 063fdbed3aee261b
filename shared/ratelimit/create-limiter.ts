// Wires a rate limiter the way every entry needs it: the given store (the database store when none is
// given, e.g. on the edge or without Redis) and the profile from app_settings through the 5 s cache.
// Behind a given store (Redis) the database store is the fallback of sign-in and MFA (docs/adr/0345).
import type { Clock } from "../clock.ts";
import type { DatabaseAccess } from "../db/database.ts";
import type { Logger } from "../logger.ts";
import { DatabaseRateLimitStore } from "./database-store.ts";
import { type RateLimitStore, RateLimiter } from "./limiter.ts";
import { cachedProfileReader } from "./profile-setting.ts";

export function createRateLimiter(opts: {
  database: DatabaseAccess;
  clock: Clock;
  logger: Logger;
  store?: RateLimitStore | undefined;
}): RateLimiter {
  const { database, clock, logger } = opts;
  const databaseStore = new DatabaseRateLimitStore({ database, clock });
  return new RateLimiter({
    store: opts.store ?? databaseStore,
    fallback: opts.store ? databaseStore : undefined,
    profile: cachedProfileReader({ database, clock }),
    logger,
    clock,
  });
}
