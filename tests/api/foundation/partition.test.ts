// A network partition between the app and PostgreSQL where packets are dropped, not refused (issue 36
// item 15): nothing errors, the sockets just go silent. Reads already on pooled connections, reads that
// queue behind them and reads after them must all answer 503 SERVICE_NOT_READY with Retry-After within a
// bounded wait (a probe that gets no answer in time counts as the database down), and once the network
// is back reads are served again with no restart. A database that is slow but answering is not down: a
// read blocked behind a lock for longer than the probe waits is served, not refused. A write admitted
// before the partition and caught by it answers the same 503.
import type { Context } from "hono";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy.ts";
import { type Instance, openInstance, through } from "./outage-harness.ts";

/** A public read that queries the database every time. */
const READ = "/api/v1/bootstrap/status";
/** Client-side deadline, not a timing assertion: a read that hangs on a silent socket would blow through it. */
const DEADLINE_MS = 10_000;

let database: TestDatabase;
let proxy: TcpProxy;
let admin: postgres.Sql;
let t: Instance;
const health = () => t.runtime.deps.health;

// Each read comes from its own address, so the (real) rate limiter never trips.
const peerAddress = (c: Context) => c.req.header("x-test-peer");
let peer = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  const pg = new URL(database.url);
  proxy = await startTcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
  admin = postgres(database.url, { max: 1, onnotice: () => {} });
  t = await openInstance({ DATABASE_URL: through(proxy, database.url) }, { peerAddress });
});

afterEach(() => proxy.heal());

afterAll(async () => {
  await t?.runtime.close();
  await admin?.end({ timeout: 1 });
  await proxy?.close();
  await database?.drop();
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `n` concurrent reads, or "timed out" if any of them has not answered by the deadline. */
function reads(n: number): Promise<Response[] | "timed out"> {
  const one = () => t.app.request(READ, { headers: { "x-test-peer": `10.9.${(++peer >> 8) & 255}.${peer & 255}` } });
  const all = Promise.all(Array.from({ length: n }, () => Promise.resolve(one())));
  return Promise.race([all, sleep(DEADLINE_MS).then(() => "timed out" as const)]);
}

async function expectStatus(settled: Response[] | "timed out", status: number) {
  expect(settled).not.toBe("timed out");
  for (const res of settled as Response[]) {
    expect(res.status).toBe(status);
    if (status === 503) {
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toMatchObject({ error_code: "SERVICE_NOT_READY", health: "not_ready", detail: expect.any(String) });
    }
  }
}

/** Polls `done` every 50 ms until it holds or `ms` passes; returns its last value. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; !done() && Date.now() < deadline; ) await sleep(50);
  return done();
}

describe("reads through a partition that drops packets", () => {
  it("reads on open connections, reads queued behind them and later reads all answer 503; after the heal, 200", async () => {
    // Every pooled connection open (DB_POOL_MAX 4 in the harness) before the network goes silent.
    await expectStatus(await reads(8), 200);
    expect(proxy.open).toBeGreaterThan(0);
    proxy.blackhole();
    // More reads than connections: some sit on silent sockets, the rest queue for them.
    await expectStatus(await reads(10), 503);
    expect(health().databaseDown).toBe(true);
    // Reads after the monitor knows: refused at once by the admission guard.
    await expectStatus(await reads(3), 503);
    proxy.heal();
    // No request needed: the monitor's own re-probe sees the database back.
    expect(await until(() => !health().databaseDown, DEADLINE_MS)).toBe(true);
    await expectStatus(await reads(8), 200);
  });

  it("a write admitted on an earlier probe and caught by the partition answers 503 too", async () => {
    // Writes admitted on a probe up to a minute old: this one passes the guard and meets the silence itself.
    const cached = await openInstance({ DATABASE_URL: through(proxy, database.url), HEALTH_CACHE_MS: "60000" }, { peerAddress });
    try {
      const login = () =>
        cached.app.request("/api/v1/auth/jwt/login", {
          method: "POST",
          body: JSON.stringify({ email: "nobody@example.com", password: "not a password of anyone" }),
          headers: { "content-type": "application/json", "x-test-peer": `10.10.0.${++peer & 255}` },
        });
      expect((await login()).status).toBe(401);
      proxy.blackhole();
      const settled = await Promise.race([Promise.resolve(login()).then((r) => [r]), sleep(DEADLINE_MS).then(() => "timed out" as const)]);
      await expectStatus(settled, 503);
    } finally {
      proxy.heal();
      await cached.runtime.close();
    }
  });

  it("slow, not gone: a read waiting on a lock longer than a probe waits is served, not refused", async () => {
    // Holds the table the read needs past the probe's timeout, then lets go; the database answers probes all along.
    const held = admin.begin(async (tx) => {
      await tx`lock table users in access exclusive mode`;
      await tx`select pg_sleep(3)`;
    });
    await sleep(100);
    await expectStatus(await reads(2), 200);
    await held;
    expect(health().databaseDown).toBe(false);
  });
});
