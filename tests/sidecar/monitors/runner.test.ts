// The monitor runner against real PostgreSQL and real loopback targets: the state machine with retries
// through the batch recorder (events, samples, minute buckets, alerts handed to the notifications), two
// sidecars sharing one database without running a check twice, maintenance silence, "check now" by
// LISTEN, and a drain that records the checks in flight.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentProbeRuns, agents, maintenanceWindows, monitors } from "../../../shared/db/schema/index.ts";
import { databaseListener } from "../../../runtime/listen.ts";
import type { NodeRuntime } from "../../../runtime/node-deps.ts";
import { markStaleProbes } from "../../../shared/verbs/monitors/run/probe-dispatch.ts";
import { MASK, sealSecrets } from "../../../shared/verbs/monitors/secrets.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { monitorsWorker } from "../../../sidecar/monitors/monitors-worker.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { type HttpPeer, startHttpPeer } from "./peers.ts";
import { DrivenClock, insertMonitor, monitorRow, openTestRuntime, rowsOf } from "./support.ts";

let db: TestDatabase;
let runtime: NodeRuntime;
let peer: HttpPeer;
const clock = new DrivenClock();

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openTestRuntime(db.url, clock);
  peer = await startHttpPeer();
});
afterAll(async () => {
  await peer?.close();
  await runtime?.close();
  await db?.drop();
});

const events = (id: number) =>
  rowsOf<{ event_type: string; status_from: string; status_to: string; duration_secs: number | null }>(
    runtime,
    sql`select event_type, status_from, status_to, duration_secs from monitor_events where monitor_id = ${id} order by id`,
  );
const alerts = (id: number) =>
  rowsOf<{ kind: string; severity: string; detail: { event_id: number } }>(
    runtime,
    sql`select kind, severity, detail from notification_alerts where monitor_id = ${id} order by id`,
  );

describe("state machine through the runner", () => {
  it("goes pending while retries last, then down with one alert, and up again with a recovery alert", async () => {
    let status = 200;
    peer.on("/health", () => ({ status }));
    const id = await insertMonitor(runtime, {
      check_type: "http",
      host: "127.0.0.1",
      config: { url: `${peer.url}/health` },
      max_retries: 2,
      retry_interval_secs: 10,
      interval_secs: 60,
    });
    const worker = monitorsWorker(runtime, { owner: "t1" });
    const round = async () => {
      await worker.tick();
      await worker.flush();
    };

    await round();
    let row = await monitorRow(runtime, id);
    expect(row.status).toBe("up");
    expect(row.next_check_at.getTime()).toBe(clock.now().getTime() + 60_000);

    status = 500;
    clock.advance(60_000);
    await round();
    row = await monitorRow(runtime, id);
    expect([row.status, row.retries]).toEqual(["pending", 1]);
    // Checked again after the retry interval, not the full interval.
    expect(row.next_check_at.getTime()).toBe(clock.now().getTime() + 10_000);

    clock.advance(10_000);
    await round();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "pending", retries: 2 });
    clock.advance(10_000);
    await round();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "down", retries: 3 });
    clock.advance(60_000);
    await round();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "down", retries: 4 });

    status = 200;
    clock.advance(60_000);
    await round();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "up", retries: 0 });

    expect((await events(id)).map((e) => `${e.status_from}>${e.status_to}`)).toEqual([
      "pending>up",
      "up>pending",
      "pending>down",
      "down>up",
    ]);
    expect((await events(id))[3]!.duration_secs).toBe(120);
    const sent = await alerts(id);
    expect(sent.map((a) => [a.kind, a.severity])).toEqual([
      ["monitor.down", "critical"],
      ["monitor.up", "info"],
    ]);
    const [downEvent] = await rowsOf<{ id: number }>(
      runtime,
      sql`select id from monitor_events where monitor_id = ${id} and event_type = 'down'`,
    );
    expect(Number(sent[0]!.detail.event_id)).toBe(Number(downEvent!.id));

    const [samples] = await rowsOf<{ n: number; up: number; http: number }>(
      runtime,
      sql`select count(*)::int as n, count(*) filter (where avail)::int as up, max(http_status) as http from monitor_samples where monitor_id = ${id}`,
    );
    expect(samples).toEqual({ n: 6, up: 2, http: 500 });
    const [buckets] = await rowsOf<{ up: number; total: number }>(
      runtime,
      sql`select sum(up)::int as up, sum(total)::int as total from monitor_uptime_minutes where monitor_id = ${id}`,
    );
    expect(buckets).toEqual({ up: 2, total: 6 });
  });

  it("with max_retries 0 the first failure goes straight to down", async () => {
    peer.on("/broken", { status: 503 });
    const id = await insertMonitor(runtime, { check_type: "http", host: "127.0.0.1", config: { url: `${peer.url}/broken` }, status: "up" });
    const worker = monitorsWorker(runtime, { owner: "t2" });
    await worker.tick();
    await worker.flush();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "down", retries: 1 });
    expect((await alerts(id)).map((a) => a.kind)).toEqual(["monitor.down"]);
  });
});

describe("secrets", () => {
  it("runs an http check with the token the vault holds, never the mask stored in the config", async () => {
    peer.on("/private", (req) => ({ status: req.headers.authorization === "Bearer s3cret-token" ? 200 : 401 }));
    const id = await insertMonitor(runtime, {
      check_type: "http",
      host: "127.0.0.1",
      config: { url: `${peer.url}/private`, auth_type: "bearer", token: MASK },
    });
    await runtime.database.db
      .update(monitors)
      .set({ secret_config: await sealSecrets(runtime.deps.vault, id, { token: "s3cret-token" }) })
      .where(sql`id = ${id}`);
    const worker = monitorsWorker(runtime, { owner: "t-secret" });
    await worker.tick();
    await worker.flush();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "up", last_msg: "HTTP 200" });
  });
});

describe("agent-probed monitors", () => {
  it("a run that expired unanswered leaves the status alone and marks the probe stale", async () => {
    const key = "ab".repeat(32);
    const [agent] = await runtime.database.db
      .insert(agents)
      .values({ name: "probe-agent", status: "active", device_pk: key, fingerprint: key.slice(0, 32) })
      .returning({ id: agents.id });
    const id = await insertMonitor(runtime, {
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port: 1 },
      status: "up",
      probe_agent_id: agent!.id,
      probe_execution_status: "queued",
      enabled: false,
    });
    const now = clock.now();
    await runtime.database.db.insert(agentProbeRuns).values({
      run_id: "cd".repeat(16),
      agent_id: agent!.id,
      monitor_id: id,
      check_type: "tcp",
      host: "127.0.0.1",
      config: {},
      state: "expired",
      scheduled_at: now,
      deadline_at: now,
      created_at: now,
    });
    const ctx = systemContext({ db: runtime.database.db, clock, random: runtime.deps.random });
    expect(await markStaleProbes({ ctx })).toEqual({ stale: 1 });
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "up", probe_execution_status: "stale" });
    expect(await markStaleProbes({ ctx })).toEqual({ stale: 0 });
  });
});

describe("live events", () => {
  it("announces each state change and every result on NOTIFY monitors (what /monitors/stream and /events/stream forward)", async () => {
    peer.on("/live", { status: 200 });
    const heard: Record<string, unknown>[] = [];
    const unlisten = await databaseListener(runtime.database)!("monitors", (p) => heard.push(JSON.parse(p) as Record<string, unknown>));
    try {
      const id = await insertMonitor(runtime, { check_type: "http", host: "127.0.0.1", config: { url: `${peer.url}/live` } });
      const worker = monitorsWorker(runtime, { owner: "t-live" });
      await worker.tick();
      await worker.flush();
      const deadline = Date.now() + 3000;
      while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toContainEqual(expect.objectContaining({ type: "status", monitor_id: id, status: "up", status_from: "pending" }));
      const results = heard.find((h) => h.type === "results") as { results: { monitor_id: number; up: boolean; status: string }[] };
      expect(results.results).toContainEqual(expect.objectContaining({ monitor_id: id, up: true, status: "up" }));
    } finally {
      await unlisten();
    }
  });
});

describe("maintenance", () => {
  it("a monitor in a window is `maintenance`, raises no alert and does not count in its uptime; after the window it alerts", async () => {
    peer.on("/down", { status: 500 });
    const id = await insertMonitor(runtime, { check_type: "http", host: "127.0.0.1", config: { url: `${peer.url}/down` }, status: "up" });
    const now = clock.now();
    await runtime.database.db.insert(maintenanceWindows).values({
      name: "patching",
      kind: "one_off",
      starts_at: new Date(now.getTime() - 60_000),
      ends_at: new Date(now.getTime() + 90_000),
      monitor_ids: [id],
    });
    const worker = monitorsWorker(runtime, { owner: "t3" });
    const round = async () => {
      await worker.tick();
      await worker.flush();
    };
    await round();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "maintenance", retries: 0 });
    clock.advance(60_000);
    await round();
    expect(await alerts(id)).toEqual([]);
    const [inWindow] = await rowsOf<{ n: number }>(
      runtime,
      sql`select coalesce(sum(total), 0)::int as n from monitor_uptime_minutes where monitor_id = ${id}`,
    );
    expect(inWindow!.n).toBe(0);

    clock.advance(60_000);
    await round();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "down" });
    expect((await alerts(id)).map((a) => a.kind)).toEqual(["monitor.down"]);
    expect((await events(id)).map((e) => e.event_type)).toEqual(["maintenance", "down"]);
  });

  it("a recurring window (cron) covers the monitors of its target", async () => {
    peer.on("/down2", { status: 500 });
    const id = await insertMonitor(runtime, {
      check_type: "http",
      host: "127.0.0.1",
      config: { url: `${peer.url}/down2` },
      status: "up",
      target_type: "ip",
      target_id: 77,
    });
    // Every day at the clock's hour:minute UTC, for 30 minutes.
    const at = clock.now();
    await runtime.database.db.insert(maintenanceWindows).values({
      name: "nightly",
      kind: "recurring",
      cron: `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`,
      duration_minutes: 30,
      target_type: "ip",
      target_id: 77,
    });
    const worker = monitorsWorker(runtime, { owner: "t4" });
    await worker.tick();
    await worker.flush();
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "maintenance" });
    expect(await alerts(id)).toEqual([]);
  });
});

describe("two sidecars on one database", () => {
  it("share the due checks without running any twice", async () => {
    peer.on("/shared", { status: 200 });
    await runtime.database.db.update(monitors).set({ enabled: false });
    const count = 400;
    const now = clock.now();
    const ids: number[] = [];
    for (let i = 0; i < count; i += 100) {
      const rows = await runtime.database.db
        .insert(monitors)
        .values(
          Array.from({ length: 100 }, (_, j) => ({
            name: `shared-${i + j}`,
            check_type: "http" as const,
            host: "127.0.0.1",
            config: { url: `${peer.url}/shared` },
            next_check_at: now,
          })),
        )
        .returning({ id: monitors.id });
      ids.push(...rows.map((r) => r.id));
    }
    const other = await openTestRuntime(db.url, clock);
    try {
      const before = peer.seen.length;
      const a = monitorsWorker(runtime, { owner: "a", claimBatch: 25, concurrency: 64 });
      const b = monitorsWorker(other, { owner: "b", claimBatch: 25, concurrency: 64 });
      // Rounds on both at once (two at a time on each) until a round claims nothing more.
      const claimed = () => a.stats().claimed + b.stats().claimed;
      for (let i = 0, before = -1; i < 50 && claimed() !== before; i++) {
        before = claimed();
        await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      }
      await Promise.all([a.flush(), b.flush()]);
      expect(a.stats().claimed + b.stats().claimed).toBe(count);
      expect(a.stats().claimed).toBeGreaterThan(0);
      expect(b.stats().claimed).toBeGreaterThan(0);
      expect(peer.seen.length - before).toBe(count);
      const perMonitor = await rowsOf<{ n: number; c: number }>(
        runtime,
        sql`select count(*)::int as n, count(distinct monitor_id)::int as c from monitor_samples where monitor_id = any(${`{${ids.join(",")}}`}::int[])`,
      );
      expect(perMonitor[0]).toEqual({ n: count, c: count });
    } finally {
      await other.close();
      await runtime.database.db.update(monitors).set({ enabled: false });
    }
  });
});

describe("the worker's loop", () => {
  it("checks at once on a monitor_control notice, and its drain records the checks in flight", async () => {
    const live = await openTestRuntime(db.url);
    try {
      peer.on("/now", { status: 200 });
      peer.on("/slow", { status: 200, delayMs: 400 });
      const far = new Date(Date.now() + 3600_000);
      const id = await insertMonitor(live, {
        check_type: "http",
        host: "127.0.0.1",
        config: { url: `${peer.url}/now` },
        next_check_at: far,
      });
      const worker = monitorsWorker(live, { owner: "live", pollMs: 60_000, flushMs: 50 });
      await worker.start();
      await live.database.db.update(monitors).set({ next_check_at: new Date() }).where(sql`id = ${id}`);
      await live.database.db.execute(
        sql`select pg_notify('monitor_control', ${JSON.stringify({ monitor_ids: [id], reason: "check_requested" })})`,
      );
      const deadline = Date.now() + 5000;
      while ((await monitorRow(live, id)).status !== "up" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect((await monitorRow(live, id)).status).toBe("up");

      const slow = await insertMonitor(live, {
        check_type: "http",
        host: "127.0.0.1",
        config: { url: `${peer.url}/slow` },
        next_check_at: new Date(),
      });
      await live.database.db.execute(
        sql`select pg_notify('monitor_control', ${JSON.stringify({ monitor_ids: [slow], reason: "check_requested" })})`,
      );
      while (worker.stats().in_flight === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(worker.stats().in_flight).toBe(1);
      await worker.stop();
      expect((await monitorRow(live, slow)).status).toBe("up");
    } finally {
      await live.close();
    }
  });
});
