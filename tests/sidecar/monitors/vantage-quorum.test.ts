// Multi-vantage monitors (docs/adr/0441) against real PostgreSQL: the quorum judgement through the
// recording verb (the path both the runner's batch and the agent link batch take), with each point's
// results as the sidecar and the agents would send them: 2 of 3 with one point down is degraded (a
// warning), two down is down (critical), and recovery; results older than one interval do not count;
// a point the monitor no longer names is ignored. Then the runner's dispatch: the sidecar checks a real
// loopback listener and one probe run is queued per vantage agent (an offline one is recorded as such).
import { createServer, type Server } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents } from "../../../shared/db/schema/index.ts";
import type { NodeRuntime } from "../../../runtime/node-deps.ts";
import { type MonitorResult, recordCheckResults } from "../../../shared/verbs/monitors/run/record-results.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { monitorsWorker } from "../../../sidecar/monitors/monitors-worker.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { DrivenClock, insertMonitor, monitorRow, openTestRuntime, rowsOf } from "./support.ts";

let db: TestDatabase;
let runtime: NodeRuntime;
let listener: Server;
const clock = new DrivenClock();

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openTestRuntime(db.url, clock);
  listener = createServer((s) => s.end());
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  listener?.close();
  await runtime?.close();
  await db?.drop();
});

const ctx = () => systemContext({ db: runtime.database.db, clock, random: runtime.deps.random });
const T0 = Date.parse("2026-11-02T10:00:00Z");
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

/** One point's result: `sidecar`, or an agent's id. */
const result = (monitor_id: number, point: "sidecar" | number, up: boolean, s: number): MonitorResult => ({
  monitor_id,
  checked_at: at(s),
  up,
  latency_ms: up ? 2 : null,
  samples: [{ metric: "avail", value: up ? 1 : 0 }],
  msg: up ? "connected" : "connect failed: ECONNREFUSED",
  source: point === "sidecar" ? "server" : "agent",
  agent_id: point === "sidecar" ? null : point,
});
const record = (...results: MonitorResult[]) => recordCheckResults({ ctx: ctx(), input: { results } });

const events = (id: number) =>
  rowsOf<{ event_type: string; status_from: string; status_to: string; msg: string }>(
    runtime,
    sql`select event_type, status_from, status_to, msg from monitor_events where monitor_id = ${id} order by id`,
  );
const alerts = (id: number) =>
  rowsOf<{ kind: string; severity: string; title: string }>(
    runtime,
    sql`select kind, severity, title from notification_alerts where monitor_id = ${id} order by id`,
  );
const points = (id: number) =>
  rowsOf<{ vantage: string; status: string; checked_at: string | Date }>(
    runtime,
    sql`select vantage, status, checked_at from monitor_vantage_results where monitor_id = ${id} order by vantage`,
  );

let nextAgent = 0;
async function agent(fields: Partial<typeof agents.$inferInsert> = {}): Promise<number> {
  const key = (++nextAgent).toString(16).padStart(2, "0").repeat(32);
  const [row] = await runtime.database.db
    .insert(agents)
    .values({ name: `edge-${nextAgent}`, status: "active", device_pk: key, fingerprint: key.slice(0, 32), ...fields })
    .returning({ id: agents.id });
  return row!.id;
}

describe("the quorum judgement (2 of 3: the sidecar and two agents)", () => {
  it("is degraded with one point down, down with two, and recovers through degraded to up", async () => {
    const [a1, a2] = [await agent(), await agent()];
    const id = await insertMonitor(runtime, {
      name: "web",
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port: 80 },
      interval_secs: 60,
      vantage_agent_ids: [a1, a2],
      quorum: 2,
    });
    // One point answered: not enough to judge, still pending; the second makes a quorum of ups.
    await record(result(id, "sidecar", true, 0));
    expect((await monitorRow(runtime, id)).status).toBe("pending");
    await record(result(id, a1, true, 1), result(id, a2, true, 2));
    expect((await monitorRow(runtime, id)).status).toBe("up");

    // One agent's flaky uplink: degraded, a warning, not a page.
    await record(result(id, a1, false, 60));
    const degraded = await monitorRow(runtime, id);
    expect(degraded.status).toBe("degraded");
    expect(degraded.last_msg).toMatch(/^1 of 3 vantage points report down \(quorum 2, 3 fresh\); agent \d+: connect failed/);
    await record(result(id, "sidecar", true, 61), result(id, a2, true, 62));
    expect((await monitorRow(runtime, id)).status).toBe("degraded");

    // A second point agrees within the interval: down.
    await record(result(id, a2, false, 100));
    expect((await monitorRow(runtime, id)).status).toBe("down");

    // Recovery: one point up leaves one down (degraded), then none.
    await record(result(id, a1, true, 160), result(id, a2, true, 161));
    expect((await monitorRow(runtime, id)).status).toBe("up");

    expect((await events(id)).map((e) => `${e.status_from}>${e.status_to}`)).toEqual([
      "pending>up",
      "up>degraded",
      "degraded>down",
      "down>degraded",
      "degraded>up",
    ]);
    expect(await alerts(id)).toEqual([
      { kind: "monitor.degraded", severity: "warning", title: "web is degraded" },
      { kind: "monitor.down", severity: "critical", title: "web is down" },
      { kind: "monitor.degraded", severity: "warning", title: "web is degraded" },
      { kind: "monitor.up", severity: "info", title: "web is up again" },
    ]);
    // Each point's last result is kept; each sample is the point's own.
    expect((await points(id)).map((p) => [p.vantage, p.status])).toEqual(
      [
        [String(a1), "up"],
        [String(a2), "up"],
        ["sidecar", "up"],
      ].sort((x, y) => x[0]!.localeCompare(y[0]!)),
    );
    const samples = await rowsOf<{ avail: boolean; source: string }>(
      runtime,
      sql`select avail, source from monitor_samples where monitor_id = ${id} order by ts`,
    );
    expect(samples.filter((s) => !s.avail)).toHaveLength(2);
    // Uptime counts the judgement, degraded as up, not each point's result: of the 9 results, the first
    // gave no verdict (not counted) and only the one at +100 s was judged down.
    const [bucket] = await rowsOf<{ up: number; total: number }>(
      runtime,
      sql`select sum(up)::int as up, sum(total)::int as total from monitor_uptime_minutes where monitor_id = ${id}`,
    );
    expect(bucket).toEqual({ up: 7, total: 8 });
  });

  it("ignores results older than one interval (plus the check's budget): a stale down does not make a quorum", async () => {
    const [a1, a2] = [await agent(), await agent()];
    const id = await insertMonitor(runtime, {
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port: 80 },
      interval_secs: 60,
      status: "up",
      vantage_agent_ids: [a1, a2],
    });
    await record(result(id, a1, false, 0));
    expect((await monitorRow(runtime, id)).status).toBe("degraded");
    // a2 fails 200 s later: a1's failure is past 60 s + the tcp budget (1 s) + the 5 s probe slack.
    await record(result(id, "sidecar", true, 199), result(id, a2, false, 200));
    expect((await monitorRow(runtime, id)).status).toBe("degraded");
    // Within the window both agree.
    await record(result(id, a1, false, 230));
    expect((await monitorRow(runtime, id)).status).toBe("down");
  });

  it("ignores a result from a point the monitor does not name, and a late result does not replace a newer one", async () => {
    const [a1, a2, other] = [await agent(), await agent(), await agent()];
    const id = await insertMonitor(runtime, {
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port: 80 },
      status: "up",
      vantage_agent_ids: [a1, a2],
      vantage_sidecar: false,
      quorum: 1,
    });
    const outcome = await record(result(id, other, false, 0), result(id, "sidecar", false, 1));
    expect(outcome).toMatchObject({ recorded: 0, skipped: 2 });
    expect((await monitorRow(runtime, id)).status).toBe("up");
    await record(result(id, a1, true, 30));
    await record(result(id, a1, false, 20));
    expect((await points(id)).map((p) => [p.vantage, p.status, new Date(p.checked_at).toISOString()])).toEqual([
      [String(a1), "up", at(30)],
    ]);
    // Quorum 1 of 2: a single point's failure is the monitor's.
    await record(result(id, a2, false, 31));
    expect((await monitorRow(runtime, id)).status).toBe("down");
  });
});

describe("the runner's dispatch", () => {
  it("checks from the sidecar and queues one probe run per vantage agent, recording an offline agent's refusal", async () => {
    const port = (listener.address() as { port: number }).port;
    const now = clock.now();
    const online = await agent({
      capabilities: { remote_probe: { enabled: true, config: { additional_cidrs: ["127.0.0.0/8"] } } },
      readiness: [{ collector: "probe.tcp", state: "ready" }],
      link_owner: "sidecar-test",
      connected_since: now,
      last_seen_at: now,
    });
    const offline = await agent();
    const id = await insertMonitor(runtime, {
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port },
      vantage_agent_ids: [online, offline],
    });
    const worker = monitorsWorker(runtime, { owner: "t-vantage" });
    await worker.tick();
    await worker.flush();
    const runs = await rowsOf<{ agent_id: number; state: string }>(
      runtime,
      sql`select agent_id, state from agent_probe_runs where monitor_id = ${id}`,
    );
    expect(runs).toEqual([{ agent_id: online, state: "queued" }]);
    const rows = await rowsOf<{ vantage: string; status: string | null; dispatch_status: string | null; dispatch_reason: string | null }>(
      runtime,
      sql`select vantage, status, dispatch_status, dispatch_reason from monitor_vantage_results where monitor_id = ${id}`,
    );
    expect(rows.sort((x, y) => x.vantage.localeCompare(y.vantage))).toEqual(
      [
        { vantage: "sidecar", status: "up", dispatch_status: null, dispatch_reason: null },
        { vantage: String(online), status: null, dispatch_status: "queued", dispatch_reason: null },
        { vantage: String(offline), status: null, dispatch_status: "unavailable", dispatch_reason: "agent_offline" },
      ].sort((x, y) => x.vantage.localeCompare(y.vantage)),
    );
    // One of three points answered (quorum 2): no verdict yet; the claim is released by the sidecar's result.
    expect(await monitorRow(runtime, id)).toMatchObject({ status: "pending", claimed_by: null });
  });
});
