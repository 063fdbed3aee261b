// The rate-limit store over Redis: @upstash/ratelimit's sliding window, talking to our own Redis through
// ioredis. The library only ever calls `evalsha` and, on NOSCRIPT, `eval` (analytics, deny lists and
// dynamic limits, which would also call get/set/multi, stay off). Its Lua scripts open with an
// Upstash-only `#!lua flags=allow-key-locking` line that Redis 7 rejects, so the adapter strips it and
// remembers which stripped script a library hash stands for, to keep using EVALSHA after the first call.
import { createHash } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "ioredis";
import type { RateLimitStore, StoreHit } from "../shared/ratelimit/limiter.ts";
import type { CircuitBreaker } from "./redis-breaker.ts";

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

/** Removes the Upstash shebang line (`#!lua flags=...`); other scripts pass unchanged. */
export function stripShebang(script: string): string {
  if (!script.startsWith("#!lua")) return script;
  const eol = script.indexOf("\n");
  return eol === -1 ? "" : script.slice(eol + 1);
}

type Arg = string | number;

/** The part of the @upstash/redis client that @upstash/ratelimit calls, forwarded to ioredis. */
export class UpstashRedisAdapter {
  readonly #redis: Redis;
  /** sha1 of the library's script (the hash it sends to evalsha) -> sha1 of the stripped script. */
  readonly #shas = new Map<string, string>();

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async evalsha(hash: string, keys: string[], args: unknown[]): Promise<unknown> {
    const stripped = this.#shas.get(hash);
    // Unknown hash: answer like Redis would, and the library falls back to eval with the script text.
    if (!stripped) throw new Error(`NOSCRIPT No matching script (adapter has not seen ${hash} yet)`);
    return this.#redis.evalsha(stripped, keys.length, ...keys, ...(args as Arg[]));
  }

  async eval(script: string, keys: string[], args: unknown[]): Promise<unknown> {
    const body = stripShebang(script);
    const result = await this.#redis.eval(body, keys.length, ...keys, ...(args as Arg[]));
    // EVAL has loaded the script into Redis's cache: later calls can go by hash.
    this.#shas.set(sha1(script), sha1(body));
    return result;
  }

  async get(key: string): Promise<string | null> {
    return this.#redis.get(key);
  }

  async set(key: string, value: unknown): Promise<"OK" | null> {
    return this.#redis.set(key, String(value));
  }
}

export interface RedisStoreOptions {
  /** Prefix of every key this store writes (tests give each file its own). */
  prefix?: string;
  /**
   * A Redis answer slower than this counts as a failure of the store. A backstop: each command is
   * bounded by the client's own timeout (runtime/redis.ts), and a hit is at most two (EVALSHA, EVAL).
   */
  timeoutMs?: number;
  /** While it is open the store fails without calling Redis (the limiter then falls back or lets the request through). */
  breaker?: CircuitBreaker | undefined;
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly #adapter: UpstashRedisAdapter;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #breaker: CircuitBreaker | undefined;
  /** @upstash/ratelimit fixes limit and window per instance: one per (limit, window) of the policy. */
  readonly #limiters = new Map<string, Ratelimit>();

  constructor(redis: Redis, opts: RedisStoreOptions = {}) {
    this.#adapter = new UpstashRedisAdapter(redis);
    this.#prefix = opts.prefix ?? "cp:ratelimit";
    this.#timeoutMs = opts.timeoutMs ?? 250;
    this.#breaker = opts.breaker;
  }

  hit(key: string, limit: number, windowMs: number): Promise<StoreHit> {
    return this.#breaker ? this.#breaker.run(() => this.#hit(key, limit, windowMs)) : this.#hit(key, limit, windowMs);
  }

  async #hit(key: string, limit: number, windowMs: number): Promise<StoreHit> {
    const res = await this.#limiter(limit, windowMs).limit(key);
    // The library answers success after its timeout instead of failing; our policy wants a failure,
    // so the limiter treats it like every other kind of outage (and the breaker counts it).
    if (res.reason === "timeout") throw new Error(`redis did not answer within ${this.#timeoutMs} ms`);
    return { success: res.success, remaining: res.remaining, resetAt: res.reset };
  }

  #limiter(limit: number, windowMs: number): Ratelimit {
    const id = `${limit}/${windowMs}`;
    let rl = this.#limiters.get(id);
    if (!rl) {
      rl = new Ratelimit({
        redis: this.#adapter as unknown as ConstructorParameters<typeof Ratelimit>[0]["redis"],
        limiter: Ratelimit.slidingWindow(limit, `${windowMs} ms`),
        prefix: this.#prefix,
        timeout: this.#timeoutMs,
        // The in-process block list would answer from memory; Redis stays the one source of truth.
        ephemeralCache: false,
        analytics: false,
        enableTelemetry: false,
      });
      this.#limiters.set(id, rl);
    }
    return rl;
  }
}
