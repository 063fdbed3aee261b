// Reads while the database is down (spec 7.3/7.4, docs/architecture.md, API contracts). Once the health monitor knows the
// database is unreachable, a read under /api/ answers 503 SERVICE_NOT_READY at once instead of queueing
// on a dead pool; reads that raced the outage settle to the same 503 within a bounded wait; the monitor
// notices the database back by itself. While healthy a read runs no health probe, and a database that is
// only slow refuses no read. The app reaches PostgreSQL through a TCP proxy the test cuts and restores;
// the last case puts a server that hangs up unanswered where PostgreSQL should be.
import { createServer } from "node:net";
import type { Context, Hono } from "hono";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../../functions/deps.ts";
import { readRefusal } from "../../../functions/middleware/admission-guard.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy.ts";
import { expectWriteAdmitted, type Instance, openInstance, through } from "./outage-harness.ts";

/** A public read that queries the database every time. */
const READ = "/api/v1/bootstrap/status";
/** Liveness bound, not a timing assertion: a read that hangs on a dead pool would blow through it. */
const BOUND_MS = 3000;

let database: TestDatabase;
let proxy: TcpProxy;
let t: Instance;
const health = () => t.runtime.deps.health;

beforeAll(async () => {
  database = await createTestDatabase();
  const pg = new URL(database.url);
  proxy = await startTcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
  t = await openInstance({ DATABASE_URL: through(proxy, database.url) }, { peerAddress });
});

afterEach(() => proxy.restore());

afterAll(async () => {
  await t?.runtime.close();
  await proxy?.close();
  await database?.drop();
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
// Each read comes from its own address, so the (real) rate limiter never trips.
const peerAddress = (c: Context) => c.req.header("x-test-peer");
let peer = 0;

/** `n` concurrent reads, or "timed out" if any of them has not answered within BOUND_MS. */
function reads(n: number, { path = READ, method = "GET", app = t.app }: { path?: string; method?: string; app?: Hono<AppEnv> } = {}) {
  const one = () => app.request(path, { method, headers: { "x-test-peer": `10.8.${(++peer >> 8) & 255}.${peer & 255}` } });
  const all = Promise.all(Array.from({ length: n }, () => Promise.resolve(one())));
  return Promise.race([all, sleep(BOUND_MS).then(() => "timed out" as const)]);
}

/** Every read answered 503 SERVICE_NOT_READY with Retry-After and the health field; `detail` when given. */
async function expectNotReady(settled: Response[] | "timed out", detail: unknown = expect.any(String)) {
  expect(settled).not.toBe("timed out");
  for (const res of settled as Response[]) {
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ error_code: "SERVICE_NOT_READY", health: "not_ready", detail });
  }
}

/** The admission guard's own refusal: the read never reached the database pool. */
const GUARD = readRefusal("not_ready").detail;

/** Polls `done` every 50 ms until it holds or `ms` passes; returns its last value. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; !done() && Date.now() < deadline; ) await sleep(50);
  return done();
}

describe("reads while the database is down", () => {
  it("healthy: reads are served and run no health probe", async () => {
    // A read still waiting after the admission guard's WATCH_MS asks the monitor to check (suspect()):
    // on a loaded machine these reads can wait that long, and that probe is the watch's, not the read's.
    // Count the probes the watch starts, so the assertion is about what admitting a read does.
    const monitor = health();
    const suspect = monitor.suspect.bind(monitor);
    let watched = 0;
    const watch = vi.spyOn(monitor, "suspect").mockImplementation(() => {
      const was = monitor.probes;
      suspect();
      watched += monitor.probes - was;
    });
    const before = monitor.probes;
    const served = await reads(20).finally(() => watch.mockRestore());
    expect(served).not.toBe("timed out");
    for (const res of served as Response[]) expect(res.status).toBe(200);
    expect(monitor.probes - watched).toBe(before);
    // A write does probe (HEALTH_CACHE_MS is 0 here): the counter counts. A watch's probe still running
    // would be joined by the write's check instead: a forced check joins it (or runs one) and settles first.
    await monitor.snapshot(true);
    const beforeWrite = monitor.probes;
    await expectWriteAdmitted(t.app);
    expect(monitor.probes).toBe(beforeWrite + 1);
  });

  it("slow, not gone: busy connections delay no probe and refuse no read", async () => {
    // Every pooled connection busy for longer than the probe waits (2 s); the probe has a connection of
    // its own (a probe left unanswered means the database is down), so it answers at once.
    const pool = t.runtime.database.sql!;
    const busy = Promise.allSettled(Array.from({ length: 4 }, () => pool`select pg_sleep(3)`));
    const ready = await t.app.request("/api/v1/readyz");
    expect(ready.status, "the probe answered").toBe(200);
    expect(health().databaseDown).toBe(false);
    expect((await busy).map((r) => r.status)).toEqual(Array(4).fill("fulfilled"));
    const served = await reads(4);
    expect(served).not.toBe("timed out");
    for (const res of served as Response[]) expect(res.status).toBe(200);
  });

  it("cut: reads racing the outage and reads after it all settle to 503 SERVICE_NOT_READY", async () => {
    proxy.cut();
    // Nothing has told the monitor yet: these meet the dead pool (4 connections), and their failures tell it.
    await expectNotReady(await reads(30));
    expect(health().databaseDown).toBe(true);
    // Refused by the admission guard now, without touching the pool; HEAD and any other read too.
    await expectNotReady(await reads(12), GUARD);
    await expectNotReady(await reads(1, { path: "/api/v1/hardware" }), GUARD);
    const [head] = (await reads(1, { method: "HEAD" })) as Response[];
    expect(head?.status).toBe(503);
    expect(head?.headers.get("retry-after")).toBe("5");
    // What needs no database is still served; readyz reports the outage itself.
    for (const path of ["/api/v1/livez", "/api/v1/startupz", "/api/openapi.json"])
      expect((await t.app.request(path)).status, path).toBe(200);
    expect((await t.app.request("/api/v1/readyz")).status).toBe(503);
  });

  it("down: the monitor re-probes at a bounded pace however many reads arrive", async () => {
    proxy.cut();
    await expectNotReady(await reads(4));
    const before = health().probes;
    // About 2 s of refused reads: at most one probe a second, one at a time, whatever the traffic.
    for (let i = 0; i < 40; i++) {
      await expectNotReady(await reads(5), GUARD);
      await sleep(50);
    }
    const probes = health().probes - before;
    expect(probes).toBeGreaterThanOrEqual(1);
    expect(probes).toBeLessThanOrEqual(5);
  });

  it("restored: the monitor sees the database back by itself; reads and writes succeed with no restart", async () => {
    proxy.cut();
    await expectNotReady(await reads(4));
    expect(health().databaseDown).toBe(true);
    proxy.restore();
    // No request at all until the background re-probe has noticed.
    expect(await until(() => !health().databaseDown, 10_000)).toBe(true);
    const served = await reads(12);
    expect(served).not.toBe("timed out");
    for (const res of served as Response[]) expect(res.status).toBe(200);
    await expectWriteAdmitted(t.app);
    expect((await t.app.request("/api/v1/readyz")).status).toBe(200);
  });
});

describe("a server that hangs up before answering (a pooler with no database behind it)", () => {
  it("reads settle to 503 SERVICE_NOT_READY instead of waiting on endless reconnects", async () => {
    // Reads what it is sent (so it sees the client hang up too) and answers nothing.
    const server = createServer((socket) => socket.resume().end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    // No credential cache: its LISTEN connection is not what this test is about.
    const hungUp = await openInstance(
      { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none`, CREDENTIAL_CACHE_S: "0" },
      { peerAddress },
    );
    try {
      await expectNotReady(await reads(8, { app: hungUp.app }));
      expect(hungUp.runtime.deps.health.databaseDown).toBe(true);
    } finally {
      await hungUp.runtime.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
