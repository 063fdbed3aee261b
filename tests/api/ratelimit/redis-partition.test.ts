// Redis partitioned (connected, then nothing answers: a relay that drops what the app sends). Every Redis
// call is bounded, and after a few failures the circuit breaker opens: the app stops calling Redis (no
// byte reaches the relay) while reads and writes are served as before. Sign-in, MFA verification and
// wrong pairing codes fall back to the database store, so a guesser is still refused at the limit
// instead of being let through; the other categories still let requests through uncounted (the policy for an
// unavailable store).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { json } from "../../helpers/app.ts";
import { REDIS_URL } from "../../helpers/env.ts";
import { clearOfMinuteBoundary, randomClientIp, stallableRelay } from "../../unit/ratelimit/support.ts";
import { PEER_HEADER } from "./support.ts";

let relay: Awaited<ReturnType<typeof stallableRelay>>;
let a: Actors;

beforeAll(async () => {
  const url = new URL(REDIS_URL);
  relay = await stallableRelay({ host: url.hostname, port: Number(url.port || 6379) });
  a = await createActors({ REDIS_URL: `redis://127.0.0.1:${relay.port}` });
  const redis = a.t.runtime.redis!;
  if (redis.status !== "ready") await new Promise((r) => redis.once("ready", r));
});
afterAll(async () => {
  await a?.t.close();
  await relay?.close();
});

const read = () => a.req("GET", "hardware?limit=5", a.admin);
const write = (name: string) => a.req("POST", "hardware", a.admin, { name });
// An unknown account: the limiter is what refuses, not the lockout of an account.
// A new address each time: the limit counted here is the client's, not the per-address lockout (docs/adr/0322).
let guess = 0;
const badSignIn = (peer: string) =>
  a.t.app.request("/api/v1/auth/login", {
    method: "POST",
    ...json({ email: `nobody-${++guess}@example.com`, password: "not the password" }, { [PEER_HEADER]: peer }),
  });
const mfaVerify = (peer: string) =>
  a.t.app.request("/api/v1/auth/mfa/verify", {
    method: "POST",
    ...json({ mfa_token: "not-a-token", code: "000000" }, { [PEER_HEADER]: peer }),
  });

describe("Redis partitioned", () => {
  it("reads, writes and sign-ins are answered; the breaker opens and Redis is no longer called; sign-in, MFA and pairing limits hold through the database", async () => {
    const breaker = a.t.runtime.redisBreaker!;
    expect(breaker, "the runtime has a Redis circuit breaker").toBeDefined();
    // Healthy: requests go through Redis.
    const before = relay.received;
    expect((await read()).status).toBe(200);
    expect(relay.received).toBeGreaterThan(before);
    expect(breaker.state).toBe("closed");

    // The counts below must not straddle a window's start (every 15-minute one is a minute's too).
    await clearOfMinuteBoundary(20_000);
    relay.stall();
    const guesser = randomClientIp();
    let signIns = 0;
    // Each request meets a Redis that never answers until the breaker has seen enough failures.
    for (let i = 0; i < 10 && breaker.state !== "open"; i++) {
      expect((await read()).status).toBe(200);
      expect((await write(`partitioned-${i}`)).status).toBe(201);
      const s = await badSignIn(guesser);
      signIns++;
      expect(s.status).toBe(401);
    }
    expect(breaker.state).toBe("open");

    // Open: nothing more is sent to Redis, and the answers are the usual ones.
    const sent = relay.received;
    expect((await read()).status).toBe(200);
    expect((await write("while-open")).status).toBe(201);
    expect(relay.received, "no byte sent to Redis while the breaker is open").toBe(sent);

    // The sign-in limit (normal profile: 5 per minute per client) is counted in the database instead.
    const statuses: number[] = [];
    while (signIns < 6) {
      statuses.push((await badSignIn(guesser)).status);
      signIns++;
    }
    expect(statuses.at(-1), `sign-ins after the breaker opened: ${statuses.join(",")}`).toBe(429);
    expect(
      statuses.slice(0, -1).every((s) => s === 401),
      statuses.join(","),
    ).toBe(true);
    expect(await a.t.sql`select 1 from rate_limit_counters where key = ${`auth:${guesser}`}`).toHaveLength(1);

    // MFA verification too (normal profile: 5 per 15 minutes per client).
    const mfaPeer = randomClientIp();
    const mfa: number[] = [];
    for (let i = 0; i < 6; i++) mfa.push((await mfaVerify(mfaPeer)).status);
    expect(
      mfa.slice(0, 5).every((s) => s !== 429),
      mfa.join(","),
    ).toBe(true);
    expect(mfa[5], mfa.join(",")).toBe(429);

    // And wrong agent pairing codes (10 misses per client in 15 minutes), the other guess of a secret.
    const pairingPeer = randomClientIp();
    const misses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await a.t.app.request("/api/v1/agents/pairing/lookup", {
        method: "POST",
        ...json({ code: `ZZZZ-ZZZZ-${String(1000 + i)}` }, { authorization: `Bearer ${a.admin}`, [PEER_HEADER]: pairingPeer }),
      });
      misses.push(res.status);
    }
    expect(
      misses.slice(0, 10).every((s) => s === 404),
      misses.join(","),
    ).toBe(true);
    expect(misses[10], misses.join(",")).toBe(429);

    // The other categories are not counted anywhere while Redis is away (they fail open, as before).
    expect(
      await a.t
        .sql`select key from rate_limit_counters where key not like 'auth:%' and key not like 'mfa_verify:%' and key not like 'agents.pairing_miss:%'`,
    ).toEqual([]);
  }, 60_000);
});
