// The retention job's step for monitors: whole UTC days of minute buckets summed into daily rows (exact
// on a rerun, a late result folded in), minute buckets past 35 days deleted; and the monitors' series
// in the metrics scrape (monitor_up, monitor_response_ms); and what retention expires for them: old
// check results and settled notification alerts.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { silentLogger } from "../../../shared/logger.ts";
import { scrapeText } from "../../../shared/metrics/scrape.ts";
import { runRetention } from "../../../shared/verbs/retention/retention-job.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import type { NodeRuntime } from "../../../runtime/node-deps.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { DrivenClock, insertMonitor, openTestRuntime, rowsOf } from "./support.ts";

let db: TestDatabase;
let runtime: NodeRuntime;
const clock = new DrivenClock(Date.parse("2026-11-02T04:00:00Z"));

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openTestRuntime(db.url, clock);
});
afterAll(async () => {
  await runtime?.close();
  await db?.drop();
});

const retain = () => runRetention({ ctx: systemContext({ db: runtime.database.db, clock, random: cryptoRandom }), logger: silentLogger });

describe("monitor uptime rollup", () => {
  it("sums each whole day into one daily row, exactly on a rerun, and expires old minute buckets", async () => {
    const id = await insertMonitor(runtime, { check_type: "tcp", host: "127.0.0.1", config: { port: 1 } });
    // Two whole days (Oct 31, Nov 1) of a check a minute, one failure an hour; today's minutes stay unrolled;
    // and one bucket 40 days old.
    await runtime.database.db.execute(sql`
      insert into monitor_uptime_minutes (monitor_id, minute, up, total)
      select ${id}, m, case when extract(minute from m) = 0 then 0 else 1 end, 1
      from generate_series('2026-10-31T00:00:00Z'::timestamptz, '2026-11-02T03:59:00Z'::timestamptz, interval '1 minute') m`);
    await runtime.database.db.execute(
      sql`insert into monitor_uptime_minutes (monitor_id, minute, up, total) values (${id}, '2026-09-20T12:00:00Z', 1, 1)`,
    );

    const r = await retain();
    expect(r.detail).toMatchObject({ complete: true, monitor_uptime: { minute_rows_deleted: 1 } });
    const daily = async () =>
      rowsOf<{ day: string; up: number; total: number; minutes: number }>(
        runtime,
        sql`select day::text, up, total, minutes from monitor_uptime_daily where monitor_id = ${id} order by day`,
      );
    const expected = [
      { day: "2026-09-20", up: 1, total: 1, minutes: 1 },
      { day: "2026-10-31", up: 1416, total: 1440, minutes: 1440 },
      { day: "2026-11-01", up: 1416, total: 1440, minutes: 1440 },
    ];
    expect(await daily()).toEqual(expected);
    const [old] = await rowsOf<{ n: number }>(
      runtime,
      sql`select count(*)::int as n from monitor_uptime_minutes where minute < '2026-10-01'`,
    );
    expect(old!.n).toBe(0);

    await retain();
    expect(await daily()).toEqual(expected);
    // A late result for yesterday: the next run recomputes that day.
    await runtime.database.db.execute(
      sql`update monitor_uptime_minutes set up = up + 1, total = total + 1 where monitor_id = ${id} and minute = '2026-11-01T00:00:00Z'`,
    );
    await retain();
    expect((await daily())[2]).toEqual({ day: "2026-11-01", up: 1417, total: 1441, minutes: 1440 });
  });

  it("deletes check results older than telemetry_warm_days (30 by default) and keeps the rest", async () => {
    const id = await insertMonitor(runtime, { check_type: "tcp", host: "127.0.0.1", config: { port: 1 } });
    await runtime.database.db.execute(sql`
      insert into monitor_samples (monitor_id, ts, avail, latency_ms)
      select ${id}, t, true, 1 from generate_series('2026-09-20T00:00:00Z'::timestamptz, '2026-11-02T00:00:00Z'::timestamptz, interval '1 day') t`);
    const run = await retain();
    expect((run.detail.expired as Record<string, number>).monitor_samples).toBe(14);
    const left = await rowsOf<{ n: number; first: Date }>(
      runtime,
      sql`select count(*)::int as n, min(ts) as first from monitor_samples where monitor_id = ${id}`,
    );
    expect(left[0]!.n).toBe(30);
    expect(new Date(left[0]!.first).toISOString()).toBe("2026-10-04T00:00:00.000Z");
  });

  it("deletes settled alerts older than telemetry_warm_days with their deliveries, and keeps one still being delivered", async () => {
    const old = "2026-09-01T00:00:00Z";
    const [sent, retrying, recent] = await rowsOf<{ id: number }>(
      runtime,
      sql`
      insert into notification_alerts (kind, severity, title, body, detail, occurred_at, state)
      values ('monitor.down', 'critical', 'old', '', '{}', ${old}, 'dispatched'), ('monitor.down', 'critical', 'old, retrying', '', '{}', ${old}, 'dispatched'),
             ('monitor.down', 'critical', 'recent', '', '{}', '2026-11-01T00:00:00Z', 'dispatched')
      returning id::int as id`,
    );
    const [sink] = await rowsOf<{ id: number }>(
      runtime,
      sql`insert into notification_sinks (name, provider_type, provider_config) values ('s', 'webhook', '{}') returning id`,
    );
    await runtime.database.db.execute(sql`insert into notification_deliveries (alert_id, sink_id, state, max_attempts, next_attempt_at)
      values (${sent!.id}, ${sink!.id}, 'delivered', 5, now()), (${retrying!.id}, ${sink!.id}, 'retrying', 5, now())`);
    await retain();
    const left = await rowsOf<{ id: number }>(runtime, sql`select id::int as id from notification_alerts order by id`);
    expect(left.map((r) => r.id)).toEqual([retrying!.id, recent!.id]);
    expect(await rowsOf(runtime, sql`select 1 from notification_deliveries where alert_id = ${sent!.id}`)).toEqual([]);
  });
});

describe("metrics", () => {
  it("writes monitor_up and monitor_response_ms for checked, enabled monitors", async () => {
    const up = await insertMonitor(runtime, {
      name: "web",
      check_type: "http",
      host: "10.0.0.1",
      status: "up",
      last_polled_at: clock.now(),
      last_latency_ms: 12.5,
    });
    const down = await insertMonitor(runtime, {
      name: "db",
      check_type: "tcp",
      host: "10.0.0.2",
      status: "down",
      last_polled_at: clock.now(),
    });
    await insertMonitor(runtime, { name: "never", check_type: "icmp", host: "10.0.0.3" });
    const text = await scrapeText(runtime.database.db, "0.0.0-test");
    expect(text).toContain("# TYPE monitor_up gauge\n");
    expect(text).toContain(`monitor_up{id="${up}",name="web",check_type="http",host="10.0.0.1"} 1\n`);
    expect(text).toContain(`monitor_up{id="${down}",name="db",check_type="tcp",host="10.0.0.2"} 0\n`);
    expect(text).toContain(`monitor_response_ms{id="${up}",name="web",check_type="http",host="10.0.0.1"} 12.5\n`);
    expect(text).not.toContain(`monitor_response_ms{id="${down}"`);
    expect(text).not.toContain('name="never"');
  });
});
