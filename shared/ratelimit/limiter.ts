// The rate limiter of spec 8.1: a bucket (category, route and client; bucket.ts) in, a decision out. The
// counting lives in a shared, external store (Redis, or the database when no Redis is configured); the
// limits come from the policy table under the profile currently set in app_settings. When the store fails,
// the categories that guard a secret are counted in a fallback store (the database behind Redis) and the
// others are let through (docs/adr/0345).
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { Bucket } from "./bucket.ts";
import { GUARDS_A_SECRET, type Profile, type Rule, ruleFor } from "./policy.ts";

export interface StoreHit {
  success: boolean;
  remaining: number;
  /** When the client may expect to be admitted again (epoch ms). */
  resetAt: number;
}

export interface RateLimitStore {
  /** Counts one request against `key` unless that would pass `limit` within the sliding `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<StoreHit>;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds to wait before retrying (at least 1); meaningful when refused. */
  retryAfterS: number;
  limit: number;
  remaining: number;
  /** True when the store could not answer and the request was let through unlimited. */
  unchecked: boolean;
}

export interface RateLimiterOptions {
  store: RateLimitStore;
  /**
   * Counts the hits of the categories that guard a secret (sign-in, MFA) while `store` fails, so brute
   * force protection does not fail open with Redis. Its counters are its own: a client's count starts
   * afresh there.
   */
  fallback?: RateLimitStore | undefined;
  /** The active profile; the settings reader caches it, so this is cheap per request. */
  profile: () => Promise<Profile>;
  logger: Logger;
  clock: Clock;
  /** At most one "store unavailable" warning per this many ms. */
  warnEveryMs?: number;
}

export class RateLimiter {
  readonly #store: RateLimitStore;
  readonly #fallback: RateLimitStore | undefined;
  readonly #profile: () => Promise<Profile>;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #warnEveryMs: number;
  #lastWarnAt = Number.NEGATIVE_INFINITY;
  #suppressed = 0;

  constructor(opts: RateLimiterOptions) {
    this.#store = opts.store;
    this.#fallback = opts.fallback;
    this.#profile = opts.profile;
    this.#logger = opts.logger;
    this.#clock = opts.clock;
    this.#warnEveryMs = opts.warnEveryMs ?? 30_000;
  }

  async check(bucket: Bucket): Promise<RateLimitDecision> {
    const profile = await this.#profile();
    const fallback = GUARDS_A_SECRET.has(bucket.category) ? this.#fallback : undefined;
    return this.#decide(bucket.key, ruleFor(bucket.category, profile), fallback);
  }

  /**
   * Counts one hit against a fixed rule that is not one of spec 8.1's categories (the agent enrollment
   * gates, wrong pairing codes). `key` must be unique to its purpose. `guardsSecret`: counted in the
   * fallback store when the store fails, like sign-in and MFA.
   */
  checkRule(key: string, rule: Rule, opts: { guardsSecret?: boolean } = {}): Promise<RateLimitDecision> {
    return this.#decide(key, rule, opts.guardsSecret ? this.#fallback : undefined);
  }

  async #decide(key: string, { limit, windowMs }: Rule, fallback: RateLimitStore | undefined): Promise<RateLimitDecision> {
    let hit: StoreHit;
    try {
      hit = await this.#store.hit(key, limit, windowMs);
    } catch (e) {
      // Policy (docs/architecture.md, platform notes): an unavailable store never turns into a 5xx or a 429. The request is served,
      // the health probe reports the dependency degraded, and the event is logged (at most every 30 s).
      // A guarded category is counted in the fallback store instead, and served unchecked only when that
      // fails too (a database down, when sign-in cannot work either).
      this.#warnUnavailable(e);
      try {
        if (!fallback) throw e;
        hit = await fallback.hit(key, limit, windowMs);
      } catch {
        return { allowed: true, retryAfterS: 0, limit, remaining: limit, unchecked: true };
      }
    }
    const now = this.#clock.now().getTime();
    return {
      allowed: hit.success,
      retryAfterS: Math.max(1, Math.ceil((hit.resetAt - now) / 1000)),
      limit,
      remaining: Math.max(0, hit.remaining),
      unchecked: false,
    };
  }

  #warnUnavailable(e: unknown): void {
    const now = this.#clock.now().getTime();
    if (now - this.#lastWarnAt < this.#warnEveryMs) {
      this.#suppressed++;
      return;
    }
    const served = this.#fallback
      ? "sign-in and MFA are counted in the fallback store, other requests are served without a limit"
      : "requests are served without a limit";
    this.#logger.warn(`rate-limit store unavailable; ${served}`, {
      error: e instanceof Error ? e.message : String(e),
      suppressed_since_last: this.#suppressed,
    });
    this.#lastWarnAt = now;
    this.#suppressed = 0;
  }
}
