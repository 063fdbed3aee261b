// Bad input on the agent sockets, every close code provoked on purpose (spec 6.6): garbage handshake
// bytes, text frames, an oversize message, a replayed or decreasing seq, a stale ts, clock skew, the
// handshake and hello timeouts, an unknown device, a flood past the gates, Redis down, the pending cap,
// a storage failure (1011) and the drain (1001). Meanwhile one well-behaved linked agent keeps being
// acknowledged: none of it stalls the sidecar for others, and none leaves a half-enrolled row.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../shared/logger.ts";
import { RateLimiter } from "../../../shared/ratelimit/limiter.ts";
import { approveAgent } from "../../../shared/verbs/agents/approve-agent.ts";
import { RedisRateLimitStore } from "../../../runtime/ratelimit-redis.ts";
import { systemClock } from "../../../shared/clock.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { type Sidecar, serverPublicKey, sqlClient, startSidecar, until } from "./harness.ts";
import { RawAgent } from "./raw-client.ts";

let tdb: TestDatabase;
let s: Sidecar;
let sql: ReturnType<typeof sqlClient>;
let serverPk = "";
const agents: RawAgent[] = [];
let good: RawAgent;
let goodId = 0;

const raw = (side: Sidecar, path: "enroll" | "link", key?: RawAgent["key"]) => {
  const agent = new RawAgent(`${side.ws}/api/v1/agents/${path}`, key);
  agents.push(agent);
  return agent;
};
const agentCount = async () => (await sql`select count(*)::int as n from agents`)[0]!.n as number;

/** An active agent's key, arranged through enrollment and approval. */
async function activeKey(): Promise<{ key: RawAgent["key"]; id: number }> {
  const e = raw(s, "enroll");
  await e.handshake(serverPk);
  e.hello();
  const id = (await e.next("hello.ack")).payload.agent_id as number;
  await approveAgent({ ctx: s.ctx, input: { id } });
  await e.closed;
  return { key: e.key, id };
}

async function linked(): Promise<{ l: RawAgent; id: number }> {
  const { key, id } = await activeKey();
  const l = raw(s, "link", key);
  await l.handshake(serverPk);
  l.hello();
  await l.next("hello.ack");
  return { l, id };
}

/** The good agent still heartbeats and hears its acknowledgement. */
async function goodStillServed(): Promise<void> {
  good.frame("heartbeat", { spool_depth: 0, spool_bytes: 0 });
  const seq = good.seq - 1;
  await until(async () => (await good.next("ping")).payload.ack_seq === seq || undefined, 3000);
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  s = await startSidecar(tdb.url, { instanceId: "bad-input", heartbeatTimeoutMs: 60_000 });
  sql = sqlClient(tdb.url);
  serverPk = await serverPublicKey(s);
  ({ l: good, id: goodId } = await linked());
}, 30_000);

afterAll(async () => {
  for (const x of agents) x.close();
  await sql?.end({ timeout: 1 });
  await s?.stop();
  await tdb?.drop();
});

describe("1008: malformed input", () => {
  it("garbage handshake bytes", async () => {
    const before = await agentCount();
    const x = raw(s, "enroll");
    await x.opened;
    x.ws.send(randomBytes(96));
    expect(await x.closed).toEqual({ code: 1008, reason: "handshake_failed" });
    const y = raw(s, "link");
    await y.opened;
    x.ws.send(new Uint8Array(3));
    y.ws.send(new Uint8Array(3));
    expect((await y.closed).code).toBe(1008);
    expect(await agentCount()).toBe(before);
    await goodStillServed();
  });

  it("a text message, before and after the handshake", async () => {
    const x = raw(s, "link");
    await x.opened;
    x.ws.send("hello");
    expect(await x.closed).toEqual({ code: 1008, reason: "text_frame" });
    const { l } = await linked();
    l.ws.send(JSON.stringify({ v: 1, type: "heartbeat" }));
    expect(await l.closed).toEqual({ code: 1008, reason: "text_frame" });
  });

  it("a message over 65535 bytes", async () => {
    const { l, id } = await linked();
    l.ws.send(new Uint8Array(65_536 + 100));
    expect(await l.closed).toEqual({ code: 1008, reason: "oversize_message" });
    await until(
      async () => (await sql`select 1 from agent_events where agent_id = ${id} and event_type = 'protocol_violation'`).length > 0,
    );
  });

  it("a replayed and a decreasing seq are protocol violations", async () => {
    const { l, id } = await linked();
    l.frame("heartbeat", {}, { seq: 5 });
    l.frame("heartbeat", {}, { seq: 5 });
    expect(await l.closed).toEqual({ code: 1008, reason: "bad_seq" });
    const { l: m } = await linked();
    m.frame("heartbeat", {}, { seq: 9 });
    m.frame("heartbeat", {}, { seq: 3 });
    expect(await m.closed).toEqual({ code: 1008, reason: "bad_seq" });
    const [event] = await until(async () => {
      const rows = await sql`select detail from agent_events where agent_id = ${id} and event_type = 'protocol_violation'`;
      return rows.length ? rows : undefined;
    });
    expect(event!.detail).toMatchObject({ reason: "bad_seq" });
  });

  it("a stale ts, ahead or behind", async () => {
    const { l } = await linked();
    l.frame("heartbeat", {}, { ts: new Date(Date.now() + 5 * 60_000) });
    expect(await l.closed).toEqual({ code: 1008, reason: "stale_ts" });
    const { l: m } = await linked();
    m.frame("heartbeat", {}, { ts: new Date(Date.now() - 11 * 60_000) });
    expect(await m.closed).toEqual({ code: 1008, reason: "stale_ts" });
  });

  it("a payload that fails its schema, and a frame that is not JSON", async () => {
    const { l } = await linked();
    l.frame("telemetry.host", { schema: 1, sample_id: "nope", status: "healthy", summary: {} });
    expect((await l.closed).code).toBe(1008);
    const { l: m } = await linked();
    m.frame("heartbeat", { note: "a\u0000b" });
    expect(await m.closed).toMatchObject({ code: 1008, reason: "malformed_payload" });
  });

  it("clock skew in hello: hello.ack {error: clock_skew}, 1008, no row", async () => {
    const before = await agentCount();
    const x = raw(s, "enroll");
    await x.handshake(serverPk);
    x.hello({}, new Date(Date.now() - 5 * 60_000));
    expect((await x.next("hello.ack")).payload).toMatchObject({ error: "clock_skew" });
    expect(await x.closed).toEqual({ code: 1008, reason: "clock_skew" });
    expect(await agentCount()).toBe(before);
  });

  it("a hello naming another key than the handshake's", async () => {
    const x = raw(s, "enroll");
    await x.handshake(serverPk);
    x.frame("hello", { ...(await import("./raw-client.ts")).helloPayload(randomBytes(32).toString("hex")) });
    expect(await x.closed).toEqual({ code: 1008, reason: "device_pk_mismatch" });
  });

  it("the handshake and hello timeouts", async () => {
    const x = raw(s, "enroll");
    await x.opened;
    expect(await x.closed).toEqual({ code: 1008, reason: "handshake_timeout" });
    const y = raw(s, "link");
    await y.handshake(serverPk);
    expect(await y.closed).toEqual({ code: 1008, reason: "hello_timeout" });
  });

  it("an unknown device on /link", async () => {
    const x = raw(s, "link");
    await x.handshake(serverPk);
    x.hello();
    expect(await x.closed).toEqual({ code: 1008, reason: "unknown_device" });
    await goodStillServed();
  });
});

describe("1013: gates and caps", () => {
  it("a flood past the per-address gate is closed 1013 before any byte is read", async () => {
    const gated = await startSidecar(tdb.url, { instanceId: "gated", gates: { perIp: { limit: 3, windowMs: 60_000 } } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) {
        const x = raw(gated, "link");
        const closed = await Promise.race([x.closed, new Promise<null>((r) => setTimeout(() => r(null), 150))]);
        codes.push(closed?.code ?? 0);
        x.close();
      }
      expect(codes.slice(3)).toEqual([1013, 1013, 1013]);
      expect(codes.slice(0, 3)).not.toContain(1013);
    } finally {
      await gated.stop();
    }
  });

  it("Redis down: the gates cannot count, so they refuse (1013)", async () => {
    const dead = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    dead.on("error", () => {});
    const limiter = new RateLimiter({
      store: new RedisRateLimitStore(dead, { timeoutMs: 200 }),
      profile: async () => "normal",
      logger: silentLogger,
      clock: systemClock,
    });
    const down = await startSidecar(tdb.url, { instanceId: "redis-down", rateLimiter: limiter });
    try {
      const x = raw(down, "enroll");
      expect(await x.closed).toEqual({ code: 1013, reason: "rate_gate_unavailable" });
    } finally {
      await down.stop();
      dead.disconnect();
    }
  });

  it("the 100-pending cap closes 1013 and writes nothing", async () => {
    await sql`insert into agents (status, device_pk, fingerprint) select 'pending', md5(random()::text) || md5(random()::text), 'x' from generate_series(1, 100 - (select count(*)::int from agents where status = 'pending'))`;
    const before = await agentCount();
    const x = raw(s, "enroll");
    await x.handshake(serverPk);
    x.hello();
    expect(await x.closed).toEqual({ code: 1013, reason: "pending_cap" });
    expect(await agentCount()).toBe(before);
    await sql`delete from agents where fingerprint = 'x'`;
  });
});

describe("1011 and 1001", () => {
  it("a batch the database cannot commit closes its links 1011 and acknowledges nothing", async () => {
    const { l } = await linked();
    await sql`alter table agent_host_samples rename to agent_host_samples_away`;
    try {
      l.frame("telemetry.host", { schema: 1, sample_id: randomBytes(16).toString("hex"), status: "healthy", summary: { cpu_pct: 1 } });
      expect(await l.closed).toEqual({ code: 1011, reason: "storage_unavailable" });
      expect(l.frames.filter((f) => f.type === "ping").every((f) => (f.payload.ack_seq as number) < 1)).toBe(true);
    } finally {
      await sql`alter table agent_host_samples_away rename to agent_host_samples`;
    }
    await goodStillServed();
  });

  it("the drain commits what was received and closes 1001", async () => {
    const side = await startSidecar(tdb.url, { instanceId: "draining", flushMs: 5000 });
    const { key, id } = await activeKey();
    const l = raw(side, "link", key);
    await l.handshake(serverPk);
    l.hello();
    await l.next("hello.ack");
    const sid = randomBytes(16).toString("hex");
    l.frame("telemetry.host", { schema: 1, sample_id: sid, status: "healthy", summary: { cpu_pct: 3 } });
    await new Promise((r) => setTimeout(r, 100));
    await side.stop();
    expect(await l.closed).toEqual({ code: 1001, reason: "going_away" });
    expect((await sql`select count(*)::int as n from agent_host_samples where sample_id = ${sid}`)[0]!.n).toBe(1);
    const [row] = await sql`select link_owner from agents where id = ${id}`;
    expect(row!.link_owner).toBeNull();
  });

  it("the good agent was served throughout", async () => {
    await goodStillServed();
    const [row] = await sql`select link_owner from agents where id = ${goodId}`;
    expect(row!.link_owner).toBe("bad-input");
  });
});
