// The Redis store against the real Redis of this machine, a closed port and a Redis that never answers.
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bucketFor } from "../../../shared/ratelimit/bucket.ts";
import { RateLimiter } from "../../../shared/ratelimit/limiter.ts";
import { RedisRateLimitStore, stripShebang, UpstashRedisAdapter } from "../../../runtime/ratelimit-redis.ts";
import { openRedis } from "../../../runtime/redis.ts";
import { silentLogger } from "../../../shared/logger.ts";
import { REDIS_URL } from "../../helpers/env.ts";
import { capturingLogger, clearOfMinuteBoundary, closedPort, drivenClock, stallableRelay } from "./support.ts";

const MIN = 60_000;
const prefix = `cp-test:rl:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
let redis: Redis;

/** ioredis refuses commands until it is ready (no offline queue, on purpose): wait for it. */
async function ready(r: Redis): Promise<Redis> {
  if (r.status !== "ready") await new Promise((resolve) => r.once("ready", resolve));
  return r;
}

beforeAll(async () => {
  redis = await ready(openRedis(REDIS_URL, silentLogger));
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe("the @upstash/ratelimit adapter over ioredis", () => {
  const script = "#!lua flags=allow-key-locking\nreturn {KEYS[1], ARGV[1]}";
  const hash = createHash("sha1").update(script).digest("hex");

  it("strips only a leading #!lua line", () => {
    expect(stripShebang(script)).toBe("return {KEYS[1], ARGV[1]}");
    expect(stripShebang("return 1")).toBe("return 1");
    expect(stripShebang("-- #!lua\nreturn 1")).toBe("-- #!lua\nreturn 1");
  });

  it("answers NOSCRIPT for an unseen hash, evals the stripped script, then goes by hash", async () => {
    const adapter = new UpstashRedisAdapter(redis);
    await expect(adapter.evalsha(hash, ["k"], [1])).rejects.toThrow(/NOSCRIPT/);
    expect(await adapter.eval(script, ["k"], [1])).toEqual(["k", "1"]);
    expect(await adapter.evalsha(hash, ["k2"], [2])).toEqual(["k2", "2"]);
  });

  it("Redis 7 itself refuses the Upstash shebang (why the adapter strips it)", async () => {
    await expect(redis.eval(script, 1, "k", 1)).rejects.toThrow(/shebang|flag/i);
  });
});

describe("Redis rate-limit store", () => {
  beforeEach(() => clearOfMinuteBoundary());

  it("admits up to the limit and refuses after, with the window's reset time", async () => {
    const s = new RedisRateLimitStore(redis, { prefix });
    const before = Date.now();
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await s.hit("seq", 5, MIN));
    expect(results.map((r) => r.success)).toEqual([true, true, true, true, true, false, false]);
    expect(results.slice(0, 5).map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect(results[5]!.resetAt).toBeGreaterThan(before);
    expect(results[5]!.resetAt).toBeLessThanOrEqual(before + MIN + 1000);
    expect(await redis.keys(`${prefix}:seq:*`)).toHaveLength(1);
  });

  it("does not over-admit under parallel hits on one key", async () => {
    // The sliding window weighs the previous fixed window (aligned on multiples of MIN) by the part of it
    // still covered, so a burst that straddles a boundary may admit one more than the limit: the
    // algorithm's documented approximation, not a race. The burst starts clear of a boundary.
    const toBoundary = MIN - (Date.now() % MIN);
    if (toBoundary < 5_000) await new Promise((r) => setTimeout(r, toBoundary + 50));
    const s = new RedisRateLimitStore(redis, { prefix });
    const results = await Promise.all(Array.from({ length: 100 }, () => s.hit("parallel", 30, MIN)));
    expect(results.filter((r) => r.success)).toHaveLength(30);
  });

  it("two stores (two processes) on one Redis share the count", async () => {
    const a = new RedisRateLimitStore(redis, { prefix });
    const other = await ready(openRedis(REDIS_URL, silentLogger));
    try {
      const b = new RedisRateLimitStore(other, { prefix });
      for (let i = 0; i < 3; i++) expect((await a.hit("shared", 5, MIN)).success).toBe(true);
      for (let i = 0; i < 2; i++) expect((await b.hit("shared", 5, MIN)).success).toBe(true);
      expect((await b.hit("shared", 5, MIN)).success).toBe(false);
      expect((await a.hit("shared", 5, MIN)).success).toBe(false);
    } finally {
      other.disconnect();
    }
  });

  it("throws when Redis is down (closed port), promptly", async () => {
    const down = openRedis(`redis://127.0.0.1:${await closedPort()}`, silentLogger);
    try {
      const s = new RedisRateLimitStore(down, { prefix });
      const started = Date.now();
      await expect(s.hit("down", 5, MIN)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      down.disconnect();
    }
  });

  it("throws when Redis hangs, after the client's command timeout", async () => {
    const relay = await stallableRelay({ port: Number(new URL(REDIS_URL).port || 6379), host: new URL(REDIS_URL).hostname });
    const hung = await ready(openRedis(`redis://127.0.0.1:${relay.port}`, silentLogger));
    try {
      const s = new RedisRateLimitStore(hung, { prefix });
      expect((await s.hit("hung", 5, MIN)).success).toBe(true);
      relay.stall();
      await expect(s.hit("hung", 5, MIN)).rejects.toThrow(/Command timed out/);
    } finally {
      hung.disconnect();
      await relay.close();
    }
  });

  it("throws when Redis hangs, after its own timeout (the backstop for a client without one)", async () => {
    const relay = await stallableRelay({ port: Number(new URL(REDIS_URL).port || 6379), host: new URL(REDIS_URL).hostname });
    const hung = await ready(new Redis(`redis://127.0.0.1:${relay.port}`, { enableOfflineQueue: false }));
    try {
      const s = new RedisRateLimitStore(hung, { prefix, timeoutMs: 300 });
      expect((await s.hit("hung", 5, MIN)).success).toBe(true);
      relay.stall();
      const started = Date.now();
      await expect(s.hit("hung", 5, MIN)).rejects.toThrow(/did not answer within 300 ms/);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      hung.disconnect();
      await relay.close();
    }
  });
});

describe("the limiter when its store is down", () => {
  it("lets requests through unlimited and warns at most once per 30 s", async () => {
    const down = openRedis(`redis://127.0.0.1:${await closedPort()}`, silentLogger);
    try {
      const clock = drivenClock(Date.now());
      const logger = capturingLogger();
      const limiter = new RateLimiter({ store: new RedisRateLimitStore(down, { prefix }), profile: async () => "strict", logger, clock });
      const bucket = bucketFor("default", "GET /api/v1/hardware", "203.0.113.1");
      for (let i = 0; i < 15; i++) {
        expect(await limiter.check(bucket)).toMatchObject({ allowed: true, unchecked: true, limit: 10 });
      }
      expect(logger.lines.filter((l) => l.level === "warn")).toHaveLength(1);
      clock.advance(29_000);
      await limiter.check(bucket);
      expect(logger.lines.filter((l) => l.level === "warn")).toHaveLength(1);
      clock.advance(1_000);
      await limiter.check(bucket);
      const warns = logger.lines.filter((l) => l.level === "warn");
      expect(warns).toHaveLength(2);
      expect(warns[1]!.fields.suppressed_since_last).toBe(15);
    } finally {
      down.disconnect();
    }
  });

  it("refuses with a whole-second retry when the store refuses", async () => {
    const clock = drivenClock(Date.now());
    const limiter = new RateLimiter({
      store: new RedisRateLimitStore(redis, { prefix }),
      profile: async () => "normal",
      logger: silentLogger,
      clock,
    });
    const id = `limiter-${Math.random()}`;
    const scan = bucketFor("scan", "POST /api/v1/discovery/scan", id);
    expect(await limiter.check(scan)).toMatchObject({ allowed: true, limit: 1, remaining: 0, unchecked: false });
    const refused = await limiter.check(scan);
    expect(refused.allowed).toBe(false);
    expect(Number.isInteger(refused.retryAfterS)).toBe(true);
    expect(refused.retryAfterS).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterS).toBeLessThanOrEqual(60);
    expect(await redis.keys(`${prefix}:scan:${id}:POST /api/v1/discovery/scan:*`)).toHaveLength(1);
    // Another scan route of the same client has its own bucket.
    expect((await limiter.check(bucketFor("scan", "POST /api/v1/ipam/scan/:network_id", id))).allowed).toBe(true);
  });
});
