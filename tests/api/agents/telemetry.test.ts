// GET /agents/{id}/telemetry, /agents/{id}/telemetry/history and /agents/metrics/series.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITY_DEFAULTS } from "../../../shared/domain/agents/capabilities.ts";
import { type AgentActors, createAgentActors } from "./support.ts";

let a: AgentActors;
beforeAll(async () => {
  a = await createAgentActors();
  // Epoch-aligned on the hour, so every bucket boundary below is known.
  a.clock.at = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
});
afterAll(async () => a.t.close());

const ago = (ms: number) => new Date(a.clock.now().getTime() - ms);

async function sample(agentId: number, ts: Date, values: Record<string, number | null> = {}) {
  const v = {
    cpu_pct: null,
    mem_pct: null,
    disk_pct: null,
    net_rx_bps: null,
    net_tx_bps: null,
    max_temp_c: null,
    load_1: null,
    uptime_s: null,
    ...values,
  };
  await a.t
    .sql`insert into agent_host_samples (agent_id, ts, cpu_pct, mem_pct, disk_pct, net_rx_bps, net_tx_bps, max_temp_c, load_1, uptime_s, status)
    values (${agentId}, ${ts}, ${v.cpu_pct}, ${v.mem_pct}, ${v.disk_pct}, ${v.net_rx_bps}, ${v.net_tx_bps}, ${v.max_temp_c}, ${v.load_1}, ${v.uptime_s}, 'healthy')`;
}

describe("GET /agents/{id}/telemetry", () => {
  it("answers the latest frame whole, the readiness, the grant and the spool", async () => {
    const node = await a.node("tele-node");
    const readiness = [
      { collector: "host.cpu", state: "ready", reason: null, remediation: null, missing: [], updated_at: "2026-11-20T10:00:00Z" },
      { collector: "host.temp", state: "unavailable", reason: "no sensors", remediation: "install lm-sensors", missing: ["sensors"] },
    ];
    const id = await a.agent({ status: "active", hardware_id: node, readiness });
    await a.t.sql`update agents set spool_depth = 3, spool_bytes = 4096, spool_reported_at = ${a.clock.now()} where id = ${id}`;
    const payload = { schema: 1, sample_id: "0".repeat(32), summary: { cpu_pct: 7 }, filesystems: [{ mount: "/", used_pct: 41 }] };
    await a.t.sql`insert into agent_latest_telemetry (agent_id, sample_id, collected_at, status, summary, payload)
      values (${id}, ${"0".repeat(32)}, ${ago(5000)}, 'degraded', ${a.t.sql.json({ cpu_pct: 7, mem_pct: 55.5, load_1: 0.4 })}, ${a.t.sql.json(payload)})`;
    const res = await a.req("GET", `agents/${id}/telemetry`, a.viewer);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      latest: {
        sample_id: "0".repeat(32),
        collected_at: ago(5000).toISOString(),
        status: "degraded",
        payload,
        projected: true,
        summary: {
          cpu_pct: 7,
          mem_pct: 55.5,
          root_disk_pct: null,
          net_rx_bps: null,
          net_tx_bps: null,
          max_temp_c: null,
          load_1: 0.4,
          uptime_s: null,
        },
      },
      readiness: [
        { collector: "host.cpu", state: "ready", reason: null, remediation: null, missing: [], updated_at: "2026-11-20T10:00:00Z" },
        {
          collector: "host.temp",
          state: "unavailable",
          reason: "no sensors",
          remediation: "install lm-sensors",
          missing: ["sensors"],
          updated_at: null,
        },
      ],
      capability: CAPABILITY_DEFAULTS.host_telemetry,
      spool: { depth: 3, bytes: 4096, reported_at: a.clock.now().toISOString() },
      hardware_id: node,
    });
  });

  it("a pending agent holds no grant yet, and has no frame", async () => {
    const id = await a.agent();
    expect(await (await a.req("GET", `agents/${id}/telemetry`, a.viewer)).json()).toMatchObject({
      latest: null,
      readiness: [],
      capability: { enabled: false, config: {} },
    });
    expect((await a.req("GET", "agents/313131/telemetry", a.viewer)).status).toBe(404);
  });
});

describe("GET /agents/{id}/telemetry/history", () => {
  it("1h (the default): 30 s buckets, averages, maxima for temperature and uptime, oldest first", async () => {
    const id = await a.agent({ status: "active" });
    await sample(id, ago(60_000), { cpu_pct: 10, max_temp_c: 50, uptime_s: 100 });
    await sample(id, ago(50_000), { cpu_pct: 20, max_temp_c: 60, uptime_s: 110 });
    await sample(id, ago(25_000), { cpu_pct: 40, mem_pct: 30 });
    await sample(id, ago(2 * 3_600_000), { cpu_pct: 99 });
    const res = await a.req("GET", `agents/${id}/telemetry/history`, a.viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.range).toBe("1h");
    expect(body.bucket_s).toBe(30);
    expect(body.points).toEqual([
      {
        collected_at: ago(60_000).toISOString(),
        sample_count: 2,
        summary: {
          cpu_pct: 15,
          mem_pct: null,
          root_disk_pct: null,
          net_rx_bps: null,
          net_tx_bps: null,
          max_temp_c: 60,
          load_1: null,
          uptime_s: 110,
        },
      },
      {
        collected_at: ago(30_000).toISOString(),
        sample_count: 1,
        summary: {
          cpu_pct: 40,
          mem_pct: 30,
          root_disk_pct: null,
          net_rx_bps: null,
          net_tx_bps: null,
          max_temp_c: null,
          load_1: null,
          uptime_s: null,
        },
      },
    ]);
  });

  it("7d merges the hourly rollups for the hours before the raw samples, weighted by their sample counts", async () => {
    const id = await a.agent({ status: "active" });
    // Two rollup hours three days ago (one 30-min bucket each), one rollup hour overlapped by raw samples (ignored).
    const h = (hours: number) => ago(hours * 3_600_000);
    await a.t.sql`insert into agent_host_samples_hourly (agent_id, hour, cpu_pct, mem_pct, sample_count) values
      (${id}, ${h(72)}, 10, 20, 100), (${id}, ${h(71)}, 30, null, 300), (${id}, ${h(1)}, 99, 99, 50)`;
    await sample(id, ago(50 * 60_000), { cpu_pct: 50 });
    await sample(id, ago(40 * 60_000), { cpu_pct: 70 });
    const body = await (await a.req("GET", `agents/${id}/telemetry/history?range=7d`, a.viewer)).json();
    expect(body.bucket_s).toBe(1800);
    expect(
      body.points.map((p: { collected_at: string; sample_count: number; summary: { cpu_pct: number } }) => [
        p.collected_at,
        p.sample_count,
        p.summary.cpu_pct,
      ]),
    ).toEqual([
      [h(72).toISOString(), 100, 10],
      [h(71).toISOString(), 300, 30],
      [h(1).toISOString(), 2, 60],
    ]);
    expect(body.points[0].summary.mem_pct).toBe(20);
    expect(body.points[1].summary.mem_pct).toBeNull();
  });

  it("caps the points at the range's limit, keeping the newest", async () => {
    const id = await a.agent({ status: "active" });
    // 121 buckets fit the closed hour [now - 1h, now]: the oldest is dropped.
    const rows = Array.from({ length: 121 }, (_, i) => ({ agent_id: id, ts: ago(i * 30_000), cpu_pct: i }));
    await a.t.sql`insert into agent_host_samples ${a.t.sql(rows)}`;
    const body = await (await a.req("GET", `agents/${id}/telemetry/history?range=1h`, a.viewer)).json();
    expect(body.points).toHaveLength(120);
    expect(body.points[0].summary.cpu_pct).toBe(119);
    expect(body.points.at(-1)).toMatchObject({ collected_at: a.clock.now().toISOString(), summary: { cpu_pct: 0 } });
  });

  it("refuses an unknown range (422) and an unknown agent (404)", async () => {
    const id = await a.agent();
    const res = await a.req("GET", `agents/${id}/telemetry/history?range=2h`, a.viewer);
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toHaveProperty("range");
    expect((await a.req("GET", "agents/414141/telemetry/history", a.viewer)).status).toBe(404);
  });
});

describe("GET /agents/metrics/series", () => {
  it("the last 30 minutes in 75 s buckets per agent; agents without samples are left out", async () => {
    const one = await a.agent({ status: "active" });
    const two = await a.agent({ status: "active" });
    const silent = await a.agent({ status: "active" });
    await sample(one, ago(80_000), { cpu_pct: 10, mem_pct: 20, net_rx_bps: 1000, net_tx_bps: 500 });
    await sample(one, ago(70_000), { cpu_pct: 30 });
    await sample(one, ago(31 * 60_000), { cpu_pct: 99 });
    await sample(two, ago(5000), { mem_pct: 50 });
    const body = await (await a.req("GET", `agents/metrics/series?ids=${one},${two},${silent}`, a.viewer)).json();
    expect(body.map((s: { agent_id: number }) => s.agent_id).sort()).toEqual([one, two].sort());
    // The clock sits on an hour, a multiple of 75 s: buckets start at now - 150 s and now - 75 s.
    expect(body.find((s: { agent_id: number }) => s.agent_id === one).points).toEqual([
      { collected_at: ago(150_000).toISOString(), cpu_pct: 10, mem_pct: 20, net_rx_bps: 1000, net_tx_bps: 500 },
      { collected_at: ago(75_000).toISOString(), cpu_pct: 30, mem_pct: null, net_rx_bps: null, net_tx_bps: null },
    ]);
    expect(await (await a.req("GET", "agents/metrics/series?ids=", a.viewer)).json()).toEqual([]);
  });

  it("needs a credential", async () => {
    expect((await a.req("GET", "agents/metrics/series")).status).toBe(401);
  });
});
