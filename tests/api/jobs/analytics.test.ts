// The analytics job against real PostgreSQL with a driven clock: capacity forecast (hand-computed line
// and the SQL fit checked against the TypeScript reference), right-sizing (spec 3.3, weighted by
// sample_count, stale rows removed), flap detection (open, record, update, resolve; no double record).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busiestWindow } from "../../../shared/domain/flap-window.ts";
import { DAY_MS, epochDays, leastSquares, projectedFullAt } from "../../../shared/domain/regression.ts";
import { cryptoRandom } from "../../../shared/clock.ts";
import { advisoryLockFor } from "../../../shared/db/advisory-lock.ts";
import { silentLogger } from "../../../shared/logger.ts";
import { analyticsJob } from "../../../shared/verbs/analytics/analytics-job.ts";
import { runJob } from "../../../shared/verbs/jobs/run-job.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

const T = Date.parse("2026-06-15T02:30:00Z");
const MIN = 60_000;
const HOUR = 3_600_000;
let t: TestApp;
let now = T;
const clock = { now: () => new Date(now) };

const run = async () => {
  const provider = t.runtime.database.provider;
  const r = await runJob(
    { ctx: systemContext({ db: provider.lease().db, clock, random: cryptoRandom }), lock: advisoryLockFor(provider), logger: silentLogger },
    analyticsJob,
    "schedule",
  );
  expect(r.outcome, r.error ?? "").toBe("success");
  return r;
};

async function node(name: string): Promise<number> {
  const [row] = await t.sql`insert into hardware (name) values (${name}) returning id`;
  return row!.id as number;
}

interface Sample {
  ts: number;
  cpu?: number | null;
  mem?: number | null;
  disk?: number | null;
  status?: string | null;
  source?: string;
  count?: number | null;
}

async function samples(hw: number, rows: Sample[]): Promise<void> {
  const values = rows.map((r) => ({
    hardware_id: hw,
    ts: new Date(r.ts),
    cpu_pct: r.cpu ?? null,
    mem_pct: r.mem ?? null,
    disk_pct: r.disk ?? null,
    status: r.status ?? null,
    source: r.source ?? "push",
    sample_count: r.count ?? null,
  }));
  await t.sql`insert into hardware_live_metrics ${t.sql(values)}`;
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("capacity forecast", () => {
  let a: number, b: number, c: number, d: number, e: number;
  const noisy: { ts: number; disk: number }[] = [];

  beforeAll(async () => {
    [a, b, c, d, e] = [await node("line"), await node("few"), await node("short"), await node("old"), await node("noisy")];
    // a: disk 50 % now, +2 points a day; memory falling 0.5 a day. Every 6 h over 14 days (k = 0..55).
    await samples(
      a,
      Array.from({ length: 56 }, (_, k) => ({ ts: T - k * 6 * HOUR, disk: 50 - 0.5 * k, mem: 80 + 0.125 * k })),
    );
    await samples(
      b,
      Array.from({ length: 9 }, (_, k) => ({ ts: T - k * DAY_MS, disk: 10 + k })),
    );
    await samples(
      c,
      Array.from({ length: 40 }, (_, k) => ({ ts: T - k * 30 * MIN, disk: 10 + k })),
    );
    await samples(
      d,
      Array.from({ length: 40 }, (_, k) => ({ ts: T - 15 * DAY_MS - k * HOUR, disk: 10 + k })),
    );
    let seed = 7;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let k = 0; k < 300; k++) noisy.push({ ts: T - Math.floor(rnd() * 14 * DAY_MS), disk: Math.fround(30 + rnd() * 40) });
    await samples(
      e,
      noisy.map((s) => ({ ...s, source: "hourly_agg", count: 12 })),
    );
    // A stale forecast of a node that no longer has enough history.
    await t.sql`insert into capacity_forecasts (hardware_id, metric, slope_per_day, current_value, evaluated_at) values (${b}, 'disk_pct', 1, 1, now())`;
  });

  // a: disk and memory; e: disk only (no memory samples, so no memory forecast).
  it("fits the hand-computed line: slope 2/day, 100 % in 25 days; falling memory gets no date", async () => {
    const r = await run();
    expect(r.detail).toMatchObject({ capacity_forecast: { upserted: 3, removed: 1 } });
    const rows = await t.sql`select * from capacity_forecasts where hardware_id = ${a} order by metric`;
    expect(rows.map((x) => x.metric)).toEqual(["disk_pct", "mem_pct"]);
    const [disk, mem] = rows;
    expect(disk!.slope_per_day).toBeCloseTo(2, 9);
    expect(disk!.current_value).toBe(50);
    expect(Math.abs(disk!.projected_full_at.getTime() - (T + 25 * DAY_MS))).toBeLessThan(1000);
    expect(disk).toMatchObject({ warning_threshold_days: 30 });
    expect(disk!.evaluated_at.getTime()).toBe(T);
    expect(mem!.slope_per_day).toBeCloseTo(-0.5, 9);
    expect(mem!.current_value).toBe(80);
    expect(mem!.projected_full_at).toBeNull();
  });

  it("no forecast without enough history (9 samples; 40 samples in one day; nothing in 14 days); the stale one is gone", async () => {
    const ids = (await t.sql`select distinct hardware_id from capacity_forecasts`).map((r) => r.hardware_id);
    expect(ids.sort()).toEqual([a, e].sort());
  });

  it("the SQL fit matches the TypeScript reference on noisy data", async () => {
    const [row] = await t.sql`select * from capacity_forecasts where hardware_id = ${e} and metric = 'disk_pct'`;
    const line = leastSquares(noisy.map((s) => ({ x: epochDays(s.ts), y: s.disk })))!;
    expect(row!.slope_per_day).toBeCloseTo(line.slope, 6);
    const latest = noisy.reduce((m, s) => (s.ts > m.ts ? s : m));
    expect(row!.current_value).toBe(latest.disk);
    const expected = projectedFullAt(line);
    if (expected) expect(Math.abs(row!.projected_full_at.getTime() - expected.getTime())).toBeLessThan(60_000);
    else expect(row!.projected_full_at).toBeNull();
  });

  it("a rerun updates in place (same ids, new evaluated_at)", async () => {
    const before = await t.sql`select id, hardware_id, metric from capacity_forecasts order by id`;
    now = T + MIN;
    await run();
    const after = await t.sql`select id, hardware_id, metric, evaluated_at from capacity_forecasts order by id`;
    expect(after.map(({ id, hardware_id, metric }) => ({ id, hardware_id, metric }))).toEqual([...before]);
    expect(after.every((r) => r.evaluated_at.getTime() === T + MIN)).toBe(true);
    now = T;
  });
});

describe("right-sizing", () => {
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    await t.sql`delete from hardware_live_metrics`;
    for (const n of ["hot", "bursty", "idle", "steady", "edge75", "downsampled", "gone"]) ids[n] = await node(`rs-${n}`);
    const series = (hw: number, cpu: number[], mem: number) =>
      samples(
        hw,
        cpu.map((v, k) => ({ ts: T - (k + 1) * HOUR, cpu: v, mem })),
      );
    await series(ids.hot!, [80, 80, 80, 80], 50);
    await series(ids.bursty!, [95, 35, 95, 35], 50); // avg 65, peak 95
    await series(ids.idle!, [5, 8, 2, 5], 10); // avg 5, peak 8, mem 10
    await series(ids.steady!, [40, 40], 40);
    await series(ids.edge75!, [75, 75], 50);
    // 36 samples at 100 % folded into one hourly row, and 12 raw samples at 52 %: weighted 88 %, not 55.7 %.
    await samples(ids.downsampled!, [{ ts: T - 20 * DAY_MS, cpu: 100, mem: 40, source: "hourly_agg", count: 36 }]);
    await series(ids.downsampled!, Array(12).fill(52), 40);
    // Old samples only (outside 30 days): no evaluation, old row removed.
    await samples(ids.gone!, [{ ts: T - 31 * DAY_MS, cpu: 99, mem: 99 }]);
    for (const n of ["steady", "gone"])
      await t.sql`insert into resource_recommendations (asset_type, asset_id, classification, cpu_avg_pct, cpu_peak_pct, mem_avg_pct, recommendation, evaluated_at)
        values ('hardware', ${ids[n]!}, 'under_provisioned', 90, 99, 50, 'old', now())`;
    await t.sql`insert into resource_recommendations (asset_type, asset_id, classification, cpu_avg_pct, cpu_peak_pct, mem_avg_pct, recommendation, evaluated_at)
      values ('compute_unit', 1, 'over_provisioned', 1, 2, 3, 'not ours to judge', now())`;
  });

  it("writes rows only for assets that need a recommendation, with the numbers in the sentence", async () => {
    const r = await run();
    expect(r.detail).toMatchObject({ right_sizing: { assets_evaluated: 6, recommendations: 4, removed: 2 } });
    const rows = await t.sql`select * from resource_recommendations where asset_type = 'hardware' order by asset_id`;
    const by = Object.fromEntries(rows.map((x) => [x.asset_id, x]));
    expect(by[ids.hot!]).toMatchObject({
      classification: "under_provisioned",
      cpu_avg_pct: 80,
      cpu_peak_pct: 80,
      mem_avg_pct: 50,
      recommendation: "CPU averages 80% (peak 80%): add CPU or move workloads off this node.",
    });
    expect(by[ids.bursty!]).toMatchObject({ classification: "under_provisioned", cpu_avg_pct: 65, cpu_peak_pct: 95 });
    expect(by[ids.bursty!]!.recommendation).toBe(
      "CPU averages 65% with peaks of 95%: add CPU headroom or move bursty workloads off this node.",
    );
    expect(by[ids.idle!]).toMatchObject({ classification: "over_provisioned", cpu_avg_pct: 5, cpu_peak_pct: 8, mem_avg_pct: 10 });
    expect(by[ids.downsampled!]).toMatchObject({ classification: "under_provisioned", cpu_avg_pct: 88, cpu_peak_pct: 100 });
    expect(Object.keys(by).map(Number).sort()).toEqual([ids.hot!, ids.bursty!, ids.idle!, ids.downsampled!].sort());
    expect(rows.every((x) => x.evaluated_at.getTime() === T)).toBe(true);
    expect((await t.sql`select 1 from resource_recommendations where asset_type = 'compute_unit'`).length).toBe(1);
    expect(r.detail!.right_sizing).toMatchObject({ note: expect.stringMatching(/compute units have no telemetry table yet/) });
  });
});

describe("flap detection", () => {
  const ids: Record<string, number> = {};
  const flip = (k: number) => (k % 2 === 0 ? "down" : "up");
  // Alternating DOWN/UP rows (each one a transition), continuing where the node's last row left off.
  const written: Record<number, number> = {};
  async function history(hw: number, minutes: number[]) {
    for (const m of minutes) {
      const k = (written[hw] = (written[hw] ?? -1) + 1);
      await t.sql`insert into status_history (entity_type, entity_id, status, previous_status, created_at)
        values ('hardware', ${hw}, ${flip(k).toUpperCase()}, ${flip(k + 1)}, ${new Date(T + m * MIN)})`;
    }
  }

  beforeAll(async () => {
    await t.sql`delete from hardware_live_metrics`;
    for (const n of ["f1", "f2", "f3", "f4"]) ids[n] = await node(n);
    await history(ids.f1!, [-20, -15, -10, -5, -1]); // 5 in the latest 30 minutes
    await history(ids.f2!, [-20, -15, -10, -5]); // 4
    await history(ids.f3!, [-600, -595, -590, -585, -580, -575]); // 6, ten hours ago
    // f4 has no status history: its live-metric rows report status (an uptime-monitor integration).
    await samples(
      ids.f4!,
      [-24, -20, -16, -12, -8, -4].map((m, k) => ({ ts: T + m * MIN, status: k % 2 === 0 ? "up" : "down", source: "uptime-kuma" })),
    );
  });

  const incidents = async () => t.sql`select * from flap_incidents order by hardware_id, id`;

  it("opens an active incident at 5 transitions, records a past burst as resolved, ignores 4", async () => {
    const r = await run();
    expect(r.detail).toMatchObject({ flap_detection: { opened: 2, recorded_resolved: 1, updated: 0, resolved: 0 } });
    const rows = await incidents();
    expect(rows.map((x) => [x.hardware_id, x.status, x.transition_count])).toEqual([
      [ids.f1, "active", 5],
      [ids.f3, "resolved", 6],
      [ids.f4, "active", 5],
    ]);
    const [f1, f3] = rows;
    expect(f1!.window_start.getTime()).toBe(T - 20 * MIN);
    expect(f1!.window_end.getTime()).toBe(T - MIN);
    expect(f1!.resolved_at).toBeNull();
    expect(f3!.resolved_at.getTime()).toBe(T);
    expect(f3!.window_start.getTime()).toBe(T - 600 * MIN);
  });

  it("updates a node still flapping; the same burst is not recorded twice", async () => {
    await history(ids.f1!, [2, 6, 10]);
    now = T + 10 * MIN;
    const r = await run();
    expect(r.detail).toMatchObject({ flap_detection: { opened: 0, recorded_resolved: 0, updated: 2, resolved: 0 } });
    const [f1] = await t.sql`select * from flap_incidents where hardware_id = ${ids.f1!}`;
    expect(f1).toMatchObject({ status: "active", transition_count: 8 });
    expect(f1!.window_end.getTime()).toBe(T + 10 * MIN);
    expect(f1!.last_evaluated_at.getTime()).toBe(T + 10 * MIN);
  });

  it("resolves by itself once the latest 30 minutes hold fewer than 5; nothing more on a rerun", async () => {
    now = T + 2 * HOUR;
    const r = await run();
    expect(r.detail).toMatchObject({ flap_detection: { opened: 0, recorded_resolved: 0, updated: 0, resolved: 2 } });
    const rows = await incidents();
    expect(rows.map((x) => x.status)).toEqual(["resolved", "resolved", "resolved"]);
    expect(rows[0]!.resolved_at.getTime()).toBe(T + 2 * HOUR);
    const again = await run();
    expect(again.detail).toMatchObject({ flap_detection: { opened: 0, recorded_resolved: 0, updated: 0, resolved: 0 } });
    expect((await incidents()).length).toBe(3);
  });

  it("a new burst after a resolved incident opens a new one", async () => {
    await history(ids.f1!, [125, 126, 127, 128, 129]);
    now = T + 130 * MIN;
    const r = await run();
    expect(r.detail).toMatchObject({ flap_detection: { opened: 1 } });
    const rows = await t.sql`select status, transition_count from flap_incidents where hardware_id = ${ids.f1!} order by id`;
    expect(rows.map((x) => [x.status, x.transition_count])).toEqual([
      ["resolved", 8],
      ["active", 5],
    ]);
  });

  it("the SQL window agrees with the pure sliding window on random transitions", async () => {
    const hw = await node("f5");
    let seed = 11;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    // 12 transitions inside one hour: some 30-minute window holds at least 6.
    const minutes = Array.from({ length: 12 }, () => 540 + Math.floor(rnd() * 3600) / 60).sort((x, y) => x - y);
    await history(hw, minutes);
    now = T + 600 * MIN;
    await run();
    const expected = busiestWindow(minutes.map((m) => T + m * MIN))!;
    const [row] = await t.sql`select transition_count, window_start, window_end from flap_incidents where hardware_id = ${hw}`;
    expect(row!.transition_count).toBe(expected.count);
    expect(row!.window_start.getTime()).toBe(expected.first);
    expect(row!.window_end.getTime()).toBe(expected.last);
  });
});
