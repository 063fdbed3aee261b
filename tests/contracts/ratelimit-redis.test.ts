// Contract of the @upstash/ratelimit adapter over ioredis (runtime/ratelimit-redis.ts). The library is
// made for Upstash's REST client; the adapter gives it the two calls it makes (evalsha, and eval on
// NOSCRIPT), strips the Upstash-only `#!lua flags=allow-key-locking` first line that Redis 7 refuses,
// and maps the library's script hash to the stripped script's so later calls go by EVALSHA. The store
// also turns the library's "success after timeout" answer into a failure. (The unit tests in
// tests/unit/ratelimit/redis-store.test.ts cover the store's counting and outage policy.)
import { createHash } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisRateLimitStore, stripShebang, UpstashRedisAdapter } from "../../runtime/ratelimit-redis.ts";
import { openRedis } from "../../runtime/redis.ts";
import { silentLogger } from "../../shared/logger.ts";
import { REDIS_URL } from "../helpers/env.ts";
import { stallableRelay } from "../unit/ratelimit/support.ts";
import { because, type Workaround } from "./support.ts";

const W: Workaround = {
  name: "ratelimit-redis",
  file: "runtime/ratelimit-redis.ts",
  libs: { "@upstash/ratelimit": "2.2.0", ioredis: "6.0.0" },
};

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");
const prefix = `cp-contract:rl:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
const WINDOW_MS = 60_000;

interface Call {
  method: string;
  args: unknown[];
}

/** Records every method call on `target` (the library's view of its client, or Redis's view of ours). */
function recorder<T extends object>(target: T, calls: Call[]): T {
  return new Proxy(target, {
    get(t, prop) {
      const value: unknown = Reflect.get(t, prop);
      if (typeof value !== "function" || typeof prop !== "string") return value;
      return (...args: unknown[]) => {
        calls.push({ method: prop, args });
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

/** A limiter configured as RedisRateLimitStore configures its own, over `redis` (the library's client). */
function libraryLimiter(redis: object, timeout = 1000): Ratelimit {
  return new Ratelimit({
    redis: redis as ConstructorParameters<typeof Ratelimit>[0]["redis"],
    limiter: Ratelimit.slidingWindow(5, `${WINDOW_MS} ms`),
    prefix,
    timeout,
    ephemeralCache: false,
    analytics: false,
    enableTelemetry: false,
  });
}

async function ready(r: Redis): Promise<Redis> {
  if (r.status !== "ready") await new Promise((resolve) => r.once("ready", resolve));
  return r;
}

let redis: Redis;
let redisVersion: string;
beforeAll(async () => {
  redis = await ready(openRedis(REDIS_URL, silentLogger));
  redisVersion = /redis_version:(\S+)/.exec(await redis.info("server"))?.[1] ?? "unknown";
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe("@upstash/ratelimit, as the adapter expects it", () => {
  it("@upstash/ratelimit's sliding window calls only evalsha, sends sha1 of its script, and falls back to eval with the script on NOSCRIPT", async () => {
    const calls: Call[] = [];
    const rl = libraryLimiter(recorder(new UpstashRedisAdapter(redis), calls));
    await rl.limit("library-view");
    await rl.limit("library-view");
    expect(
      calls.map((c) => c.method),
      because(W, "the library calls evalsha, then eval after a NOSCRIPT error, then evalsha again; nothing else (get/set/multi)"),
    ).toEqual(["evalsha", "eval", "evalsha"]);
    const [hash, script] = [calls[0]!.args[0] as string, calls[1]!.args[0] as string];
    expect(
      hash,
      because(W, "the library's evalsha hash is sha1 of the script it evals (the adapter maps that hash to the stripped script)"),
    ).toBe(sha1(script));
    expect(calls[2]!.args[0]).toBe(hash);
  });

  it("@upstash/ratelimit's script opens with `#!lua flags=allow-key-locking`, which Redis refuses, and runs once that line is stripped", async () => {
    const calls: Call[] = [];
    await libraryLimiter(recorder(new UpstashRedisAdapter(redis), calls)).limit("shebang");
    // The library's own keys and arguments, as it passed them with the script.
    const [script, keys, args] = calls.find((c) => c.method === "eval")!.args as [string, string[], (string | number)[]];
    expect(script.split("\n")[0], because(W, "the library's scripts start with the Upstash-only shebang the adapter strips")).toBe(
      "#!lua flags=allow-key-locking",
    );
    await expect(
      redis.eval(script, keys.length, ...keys, ...args),
      because(W, `Redis ${redisVersion} refuses the unknown shebang flag (the reason for stripping)`),
    ).rejects.toThrow(/flag/i);
    expect(
      await redis.eval(stripShebang(script), keys.length, ...keys, ...args),
      because(W, `the stripped script runs on Redis ${redisVersion}`),
    ).toEqual(expect.any(Array));
  });

  it("@upstash/ratelimit answers success with reason 'timeout' when Redis does not answer in time (the store turns that into a failure)", async () => {
    const url = new URL(REDIS_URL);
    const relay = await stallableRelay({ host: url.hostname, port: Number(url.port || 6379) });
    // A client without openRedis's own command timeout, which would otherwise answer first.
    const hung = await ready(new Redis(`redis://127.0.0.1:${relay.port}`, { enableOfflineQueue: false }));
    try {
      const rl = libraryLimiter(new UpstashRedisAdapter(hung), 200);
      expect((await rl.limit("timeout")).success).toBe(true);
      relay.stall();
      expect(
        await rl.limit("timeout"),
        because(W, "the library lets the request through with reason 'timeout' instead of throwing"),
      ).toMatchObject({
        success: true,
        reason: "timeout",
      });
    } finally {
      hung.disconnect();
      await relay.close();
    }
  });
});

describe("the adapter's effect", () => {
  it("Redis receives the stripped script once by EVAL, then only EVALSHA of it", async () => {
    const calls: Call[] = [];
    const store = new RedisRateLimitStore(recorder(redis, calls), { prefix });
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push(await store.hit("effect", 5, WINDOW_MS));
    expect(hits.map((h) => h.remaining)).toEqual([4, 3, 2]);
    expect(
      calls.map((c) => c.method),
      because(W, "after the first EVAL the adapter keeps using EVALSHA"),
    ).toEqual(["eval", "evalsha", "evalsha"]);
    const sent = calls[0]!.args[0] as string;
    expect(sent.startsWith("#!"), because(W, "the script reaches Redis without its shebang line")).toBe(false);
    expect(calls[1]!.args[0], because(W, "EVALSHA goes by the stripped script's hash")).toBe(sha1(sent));
  });
});
