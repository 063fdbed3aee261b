// Events, history, overview and uptime (seeded minute buckets and daily rollups, the math checked).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const MIN = 60_000;

describe("events and history", () => {
  it("lists events newest first in the envelope (limit 1..500, event_type filter)", async () => {
    const m = await a.monitor();
    for (const [type, to] of [
      ["pending", "pending"],
      ["down", "down"],
      ["up", "up"],
    ] as const)
      await a.t
        .sql`insert into monitor_events (monitor_id, event_type, status_to, msg, duration_secs, suppressed_by) values (${m.id}, ${type}, ${to}, ${`msg ${type}`}, 5, ${type === "down" ? 77 : null})`;
    const res = await a.req("GET", `monitors/${m.id}/events?limit=2`, a.viewer);
    const page = await res.json();
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.items.map((e: { event_type: string }) => e.event_type)).toEqual(["up", "down"]);
    expect(page.items[1]).toMatchObject({ monitor_id: m.id, status_to: "down", msg: "msg down", duration_secs: 5, suppressed_by: 77 });
    const downs = await (await a.req("GET", `monitors/${m.id}/events?event_type=down`, a.viewer)).json();
    expect(downs.total).toBe(1);
    // Above its maximum a limit is clamped, not refused (docs/adr/0410); a non-integer is the 422.
    expect(await (await a.req("GET", `monitors/${m.id}/events?limit=501`, a.viewer)).json()).toMatchObject({ limit: 500 });
    expect((await a.req("GET", `monitors/${m.id}/events?limit=0`, a.viewer)).status).toBe(422);
    expect((await a.req("GET", `monitors/${m.id}/events?event_type=exploded`, a.viewer)).status).toBe(422);
    expect((await a.req("GET", "monitors/987654/events", a.viewer)).status).toBe(404);
  });

  it("answers one metric's points oldest first within `hours`, from columns or extra", async () => {
    const m = await a.monitor();
    const now = a.clock.now().getTime();
    const rows = [
      { ts: new Date(now - 3 * 3_600_000), avail: true, latency_ms: 9, extra: { jitter_ms: 1 } },
      { ts: new Date(now - 2 * MIN), avail: false, latency_ms: null, extra: null },
      { ts: new Date(now - MIN), avail: true, latency_ms: 12.5, extra: { jitter_ms: 2.5 } },
    ];
    for (const r of rows)
      await a.t
        .sql`insert into monitor_samples (monitor_id, ts, avail, latency_ms, extra) values (${m.id}, ${r.ts}, ${r.avail}, ${r.latency_ms}, ${r.extra ? a.t.sql.json(r.extra) : null})`;
    const lat = await (await a.req("GET", `monitors/${m.id}/history`, a.viewer)).json();
    expect(lat).toEqual([
      { ts: rows[0]!.ts.toISOString(), value: 9 },
      { ts: rows[2]!.ts.toISOString(), value: 12.5 },
    ]);
    const avail = await (await a.req("GET", `monitors/${m.id}/history?metric=avail&hours=1`, a.viewer)).json();
    expect(avail.map((p: { value: number }) => p.value)).toEqual([0, 1]);
    const jitter = await (await a.req("GET", `monitors/${m.id}/history?metric=jitter_ms`, a.viewer)).json();
    expect(jitter.map((p: { value: number }) => p.value)).toEqual([1, 2.5]);
    expect(await (await a.req("GET", `monitors/${m.id}/history?metric=nothing_here`, a.viewer)).json()).toEqual([]);
    expect((await a.req("GET", `monitors/${m.id}/history?hours=721`, a.viewer)).status).toBe(422);
    expect((await a.req("GET", `monitors/${m.id}/history?metric=x;drop`, a.viewer)).status).toBe(422);

    // The overview: the last latencies oldest first, the last events newest first.
    await a.t.sql`insert into monitor_events (monitor_id, event_type, status_to, msg) values (${m.id}, 'up', 'up', 'ok')`;
    const overview = await (await a.req("GET", `monitors/overview?q=${encodeURIComponent(m.name)}`, a.viewer)).json();
    expect(overview.items).toHaveLength(1);
    expect(overview.items[0]).toMatchObject({ id: m.id, latency_series: [9, 12.5], recent_checks: [{ status_to: "up", msg: "ok" }] });
  });
});

describe("GET /monitors/{id}/uptime", () => {
  it("is null everywhere without data, with zero coverage", async () => {
    const m = await a.monitor();
    expect(await (await a.req("GET", `monitors/${m.id}/uptime`, a.viewer)).json()).toEqual({
      pct_24h: null,
      pct_7d: null,
      pct_30d: null,
      pct_365d: null,
      pct_total: null,
      last_polled_at: null,
      coverage_24h: { observed_minutes: 0, window_minutes: 1440, pct: 0 },
      coverage_7d: { observed_minutes: 0, window_minutes: 10080, pct: 0 },
      coverage_30d: { observed_minutes: 0, window_minutes: 43200, pct: 0 },
    });
  });

  it("sums minute buckets per window and daily rollups before them for 365 d and total", async () => {
    const m = await a.monitor({ interval_secs: 120 });
    const now = a.clock.now();
    const minute = (ago: number) => new Date(Math.floor((now.getTime() - ago * MIN) / MIN) * MIN);
    const buckets: [number, number, number][] = [
      [10, 1, 1],
      [20, 0, 1],
      [30, 1, 1],
      [40, 1, 1], // last 24 h: 3 of 4
      [2 * 1440, 0, 2], // 2 days ago: 0 of 2 -> 7 d: 3 of 6
      [20 * 1440, 4, 4], // 20 days ago: 4 of 4 -> 30 d: 7 of 10
    ];
    for (const [ago, up, total] of buckets)
      await a.t.sql`insert into monitor_uptime_minutes (monitor_id, minute, up, total) values (${m.id}, ${minute(ago)}, ${up}, ${total})`;
    // Rolled-up days, all before the buckets above (the job rolls up days, then prunes old buckets):
    // 40 and 100 days ago count in 365 d; 400 days ago only in total.
    const day = (ago: number) => new Date(now.getTime() - ago * 86_400_000).toISOString().slice(0, 10);
    for (const [ago, up, total] of [
      [100, 90, 100],
      [40, 50, 100],
      [400, 0, 100],
    ] as const)
      await a.t
        .sql`insert into monitor_uptime_daily (monitor_id, day, up, total, minutes) values (${m.id}, ${day(ago)}, ${up}, ${total}, ${total})`;
    await a.t.sql`update monitors set last_polled_at = ${now} where id = ${m.id}`;

    const res = await a.req("GET", `monitors/${m.id}/uptime`, a.viewer);
    expect(res.status).toBe(200);
    const u = await res.json();
    expect(u).toMatchObject({ pct_24h: 75, pct_7d: 50, pct_30d: 70, last_polled_at: now.toISOString() });
    // 365 d: daily (90 + 50 of 200) + buckets after the last rolled day (7 of 10) = 147 / 210 = 70 %.
    expect(u.pct_365d).toBe(70);
    // total: + the 400-day-old day (0 of 100) = 147 / 310 = 47.4 %.
    expect(u.pct_total).toBe(47.4);
    // coverage: 4 checks x 120 s = 8 minutes of 1440.
    expect(u.coverage_24h).toEqual({ observed_minutes: 8, window_minutes: 1440, pct: 0.6 });
    expect(u.coverage_30d).toEqual({ observed_minutes: 20, window_minutes: 43200, pct: 0 });
  });
});
