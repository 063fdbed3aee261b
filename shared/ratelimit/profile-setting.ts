// The active rate-limit profile: the `rate_limit_profile` row of app_settings (a JSON string such as
// "strict"), read through a short cache so a settings change applies within seconds, without a restart.
import { eq } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { DatabaseAccess, Db } from "../db/database.ts";
import { appSettings } from "../db/schema/index.ts";
import { DEFAULT_PROFILE, isProfile, type Profile } from "./policy.ts";

export const PROFILE_SETTING_KEY = "rate_limit_profile";

/** The stored profile, or the default when the row is absent or holds something else. */
export async function readRateLimitProfile(db: Db): Promise<Profile> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, PROFILE_SETTING_KEY)).limit(1);
  return isProfile(row?.value) ? row.value : DEFAULT_PROFILE;
}

export interface ProfileReaderOptions {
  database: DatabaseAccess;
  clock: Clock;
  ttlMs?: number;
}

/**
 * A reader that asks the database at most once per `ttlMs` (concurrent callers share one query). When
 * the read fails it keeps the last known profile (the default before any), and tries again after ttlMs.
 */
export function cachedProfileReader({ database, clock, ttlMs = 5000 }: ProfileReaderOptions): () => Promise<Profile> {
  let value: Profile = DEFAULT_PROFILE;
  let readAt = Number.NEGATIVE_INFINITY;
  let inflight: Promise<Profile> | undefined;
  const refresh = async (): Promise<Profile> => {
    const lease = database.lease();
    try {
      value = await readRateLimitProfile(lease.db);
    } catch {
      // Keep the last known value; the request path must not fail on a settings read.
    } finally {
      readAt = clock.now().getTime();
      await lease.release().catch(() => {});
    }
    return value;
  };
  return () => {
    if (clock.now().getTime() - readAt < ttlMs) return Promise.resolve(value);
    inflight ??= refresh().finally(() => (inflight = undefined));
    return inflight;
  };
}
