// The retention job against real PostgreSQL with a driven clock: ages, in-place hourly averages, the
// agent hourly table, idempotence (a second run changes nothing), late rows merged by sample_count,
// and kill safety: stopped after any number of batches, or its connection killed inside a batch, a
// rerun ends with exactly the contents of an uninterrupted run.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { silentLogger } from "../../../shared/logger.ts";
import { type RetentionOptions, runRetention } from "../../../shared/verbs/retention/retention-job.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T = Date.parse("2026-06-15T03:30:00Z");
const WARM = T - 30 * DAY; // 2026-05-16T03:30Z
const HOT_HOUR = Date.parse("2026-06-08T03:00:00Z"); // the hour of T - 7 days
let t: TestApp;
let now = T;
const clock = { now: () => new Date(now) };
let nodes: number[] = [];

const retain = (opts: RetentionOptions = {}) =>
  runRetention(
    { ctx: systemContext({ db: t.runtime.database.provider.lease().db, clock, random: cryptoRandom }), logger: silentLogger },
    opts,
  );

/** 35 days of 10-minute samples for two nodes and two agents, values derived from the time. */
async function seed(): Promise<void> {
  await t.sql`truncate hardware_live_metrics, agent_host_samples, agent_host_samples_hourly`;
  const from = new Date(T - 35 * DAY);
  const to = new Date(T);
  for (const [i, hw] of nodes.entries())
    await t.sql`insert into hardware_live_metrics (hardware_id, ts, cpu_pct, mem_pct, disk_pct, temp_c, net_rx_bps, uptime_s, status, source)
      select ${hw}, g, ((extract(epoch from g)::bigint / 600 + ${i * 13}) % 97)::real, ((extract(epoch from g)::bigint / 600) % 41)::real,
        case when (extract(epoch from g)::bigint / 600) % 5 = 0 then null else 50 + ${i} end, 40, 1000 * ${i + 1},
        extract(epoch from g - ${from}::timestamptz), case when (extract(epoch from g)::bigint / 600) % 7 = 0 then 'down' else 'up' end,
        case when ${i} = 1 and (extract(epoch from g)::bigint / 600) % 3 = 0 then 'snmp' else 'push' end
      from generate_series(${from}::timestamptz, ${to}::timestamptz, interval '10 minutes') g`;
  for (const agent of [1, 2])
    await t.sql`insert into agent_host_samples (agent_id, hardware_id, ts, cpu_pct, mem_pct, disk_pct, load_1, net_rx_bps, net_tx_bps)
      select ${agent}, ${agent === 1 ? nodes[0]! : null}, g, ((extract(epoch from g)::bigint / 600) % 89)::real, 30 + ${agent}, null,
        ((extract(epoch from g)::bigint / 600) % 4)::real, 10, 20
      from generate_series(${from}::timestamptz, ${to}::timestamptz, interval '10 minutes') g`;
}

async function snapshot() {
  return {
    live: await t.sql`select hardware_id, ts, cpu_pct, mem_pct, disk_pct, temp_c, net_rx_bps, net_tx_bps, uptime_s, status, source, sample_count
      from hardware_live_metrics order by hardware_id, ts, source, cpu_pct`,
    agent:
      await t.sql`select agent_id, hardware_id, ts, cpu_pct, mem_pct, disk_pct, load_1, net_rx_bps, net_tx_bps from agent_host_samples order by agent_id, ts`,
    hourly: await t.sql`select * from agent_host_samples_hourly order by agent_id, hour`,
  };
}

/** Samples younger than warm per node: a raw row counts 1, an hourly row (its hour may start before warm) its sample_count. */
const represented = async () =>
  (
    await t.sql`select hardware_id, sum(coalesce(sample_count, 1))::int as n from hardware_live_metrics
      where ts >= ${new Date(WARM)} or (source = 'hourly_agg' and ts >= ${new Date(WARM - (WARM % HOUR))}) group by 1 order by 1`
  ).map((r) => [r.hardware_id, r.n]);

beforeAll(async () => {
  t = await createTestApp();
  nodes = [];
  for (const name of ["r1", "r2"]) nodes.push((await t.sql`insert into hardware (name) values (${name}) returning id`)[0]!.id as number);
});
afterAll(async () => t.close());

describe("one run at T (hot 7 days, warm 30 days)", () => {
  let reference: Awaited<ReturnType<typeof snapshot>>;
  let expected: Record<string, { n: number; cpu: number; mem: number; status: string | null }>;
  let hot: unknown;

  beforeAll(async () => {
    now = T;
    await seed();
    const band =
      await t.sql`select hardware_id, date_trunc('hour', ts, 'UTC') as hour, count(*)::int as n, avg(cpu_pct) as cpu, avg(mem_pct) as mem,
        (array_agg(status order by ts desc))[1] as status
      from hardware_live_metrics where ts >= ${new Date(WARM)} and ts < ${new Date(HOT_HOUR)} group by 1, 2`;
    expected = Object.fromEntries(band.map((r) => [`${r.hardware_id}@${r.hour.toISOString()}`, r as never]));
    hot = await t.sql`select * from hardware_live_metrics where ts >= ${new Date(HOT_HOUR)} order by id`;
  });

  it("replaces the band by one hourly_agg row per node and hour, in place; hot rows untouched; older than warm deleted", async () => {
    const r = await retain();
    expect(r.detail).toMatchObject({ hot_days: 7, warm_days: 30, complete: true });
    const rows = await t.sql`select * from hardware_live_metrics where ts < ${new Date(HOT_HOUR)} order by hardware_id, ts`;
    expect(rows.every((x) => x.source === "hourly_agg")).toBe(true);
    expect(rows.length).toBe(Object.keys(expected).length);
    for (const x of rows) {
      const e = expected[`${x.hardware_id}@${x.ts.toISOString()}`]!;
      expect(x.sample_count).toBe(e.n);
      expect(x.cpu_pct).toBeCloseTo(e.cpu, 4);
      expect(x.mem_pct).toBeCloseTo(e.mem, 4);
      expect(x.status).toBe(e.status);
    }
    // The hour that straddles the warm age keeps only its samples younger than warm (03:30, 03:40, 03:50).
    expect(rows[0]).toMatchObject({ hardware_id: nodes[0], sample_count: 3 });
    expect(rows[0]!.ts.toISOString()).toBe("2026-05-16T03:00:00.000Z");
    expect(await t.sql`select * from hardware_live_metrics where ts >= ${new Date(HOT_HOUR)} order by id`).toEqual(hot);
    expect((await t.sql`select count(*)::int as n from hardware_live_metrics where ts < ${new Date(WARM)}`)[0]!.n).toBe(nodes.length);
  });

  it("computes an hour by hand: node r1 at 2026-06-01T12:00Z", async () => {
    const [row] = await t.sql`select * from hardware_live_metrics where hardware_id = ${nodes[0]!} and ts = '2026-06-01T12:00:00Z'`;
    const steps = [0, 1, 2, 3, 4, 5].map((k) => Date.parse("2026-06-01T12:00:00Z") / 600_000 + k);
    expect(row!.sample_count).toBe(6);
    expect(row!.cpu_pct).toBeCloseTo(steps.reduce((s, k) => s + (k % 97), 0) / 6, 4);
    const disks = steps.filter((k) => k % 5 !== 0);
    expect(row!.disk_pct).toBeCloseTo(disks.length ? 50 : NaN, 4);
    expect(row!.status).toBe(steps[5]! % 7 === 0 ? "down" : "up");
    expect(row!.uptime_s).toBe((Date.parse("2026-06-01T12:50:00Z") - (T - 35 * DAY)) / 1000);
  });

  it("collapses agent samples into the hourly table and deletes them", async () => {
    const left = await t.sql`select count(*)::int as n from agent_host_samples where ts < ${new Date(HOT_HOUR)}`;
    expect(left[0]!.n).toBe(0);
    const [h] = await t.sql`select * from agent_host_samples_hourly where agent_id = 1 and hour = '2026-06-01T12:00:00Z'`;
    const steps = [0, 1, 2, 3, 4, 5].map((k) => Date.parse("2026-06-01T12:00:00Z") / 600_000 + k);
    expect(h).toMatchObject({ hardware_id: nodes[0], sample_count: 6, mem_pct: 31, disk_pct: null, net_tx_bps: 20 });
    expect(h!.cpu_pct).toBeCloseTo(steps.reduce((s, k) => s + (k % 89), 0) / 6, 4);
    const [counts] =
      await t.sql`select count(*)::int as hours, sum(sample_count)::int as samples, min(hour) as first from agent_host_samples_hourly`;
    expect(counts!.first.toISOString()).toBe("2026-05-16T03:00:00.000Z");
    // Every sample from warm up to the hot hour is represented exactly once.
    expect(counts!.samples).toBe(2 * ((HOT_HOUR - WARM) / 600_000));
    reference = await snapshot();
  });

  it("running it twice changes nothing the second time", async () => {
    const again = await retain();
    expect(again.rows_touched).toBe(0);
    expect(await snapshot()).toEqual(reference);
  });

  it("late raw rows for an aggregated hour are merged, weighted by sample_count", async () => {
    const hour = new Date("2026-06-01T12:00:00Z");
    const [before] = await t.sql`select cpu_pct, sample_count from hardware_live_metrics where hardware_id = ${nodes[0]!} and ts = ${hour}`;
    await t.sql`insert into hardware_live_metrics (hardware_id, ts, cpu_pct, source) values (${nodes[0]!}, ${new Date(hour.getTime() + 5 * 60_000)}, 100, 'push'), (${nodes[0]!}, ${new Date(hour.getTime() + 15 * 60_000)}, 100, 'push')`;
    await t.sql`insert into agent_host_samples (agent_id, ts, cpu_pct) values (1, ${new Date(hour.getTime() + 60_000)}, 0)`;
    const [hBefore] = await t.sql`select cpu_pct, sample_count from agent_host_samples_hourly where agent_id = 1 and hour = ${hour}`;
    const r = await retain();
    expect(r.detail).toMatchObject({
      live_metrics: { raw_rows: 2, hourly_rows_written: 0, hourly_rows_merged: 1 },
      agent_samples: { raw_rows: 1, hourly_rows: 1 },
    });
    const rows =
      await t.sql`select cpu_pct, sample_count, source from hardware_live_metrics where hardware_id = ${nodes[0]!} and ts >= ${hour} and ts < ${new Date(hour.getTime() + HOUR)}`;
    expect(rows.length).toBe(1);
    expect(rows[0]!.sample_count).toBe(before!.sample_count + 2);
    expect(rows[0]!.cpu_pct).toBeCloseTo((before!.cpu_pct * before!.sample_count + 200) / (before!.sample_count + 2), 4);
    const [h] = await t.sql`select cpu_pct, sample_count from agent_host_samples_hourly where agent_id = 1 and hour = ${hour}`;
    expect(h!.sample_count).toBe(hBefore!.sample_count + 1);
    expect(h!.cpu_pct).toBeCloseTo((hBefore!.cpu_pct * hBefore!.sample_count) / (hBefore!.sample_count + 1), 4);
  });

  it("ages come from the clock: a day later one more day is downsampled and one more expires", async () => {
    now = T + DAY;
    const r = await retain();
    expect(r.detail).toMatchObject({ live_metrics: { raw_rows: 2 * 144 }, complete: true });
    const oldest = await t.sql`select min(ts) as ts from hardware_live_metrics`;
    expect(oldest[0]!.ts.toISOString()).toBe("2026-05-17T03:00:00.000Z");
    const raw = await t.sql`select min(ts) as ts from hardware_live_metrics where source <> 'hourly_agg'`;
    expect(raw[0]!.ts.toISOString()).toBe("2026-06-09T03:00:00.000Z");
    now = T;
  });
});

describe("kill safety", () => {
  let reference: Awaited<ReturnType<typeof snapshot>>;
  const SMALL = { batchRows: 700 };

  beforeAll(async () => {
    now = T;
    await seed();
    const r = await retain(SMALL);
    expect(r.detail).toMatchObject({ complete: true });
    expect(r.detail.batches).toBeGreaterThan(20);
    reference = await snapshot();
  });
  beforeEach(async () => seed());

  for (const stopAfter of [1, 3, 7, 12, 19]) {
    it(`stopped after ${stopAfter} batch(es), nothing is lost and a rerun ends exactly like an uninterrupted run`, async () => {
      const before = await represented();
      const partial = await retain({ ...SMALL, maxBatches: stopAfter });
      expect(partial.detail).toMatchObject({ complete: false, batches: stopAfter });
      expect(await represented()).toEqual(before);
      const rest = await retain(SMALL);
      expect(rest.detail).toMatchObject({ complete: true });
      expect(await snapshot()).toEqual(reference);
    });
  }

  it("its connection killed inside a batch: that batch rolls back whole and a rerun completes", async () => {
    const before = await represented();
    // Hold a lock on one raw row of the second node, so a batch blocks on it mid-statement...
    const holder = await t.sql.reserve();
    await holder`begin`;
    await holder`select id from hardware_live_metrics where hardware_id = ${nodes[1]!} and ts = '2026-05-25T00:00:00Z' for update`;
    const running = retain(SMALL).then(
      () => "finished",
      (e: Error) => e.message,
    );
    // ...then kill that backend, as a crash would, while its delete-and-aggregate is half done.
    let killed = false;
    for (let i = 0; i < 200 && !killed; i++) {
      const [w] =
        await t.sql`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%delete from hardware_live_metrics%'`;
      if (w) killed = (await t.sql`select pg_terminate_backend(${w.pid}) as ok`)[0]!.ok;
      else await new Promise((r) => setTimeout(r, 25));
    }
    expect(killed).toBe(true);
    expect(await running).not.toBe("finished");
    await holder`rollback`;
    holder.release();
    expect(await represented()).toEqual(before);
    const raw =
      await t.sql`select count(*)::int as n from hardware_live_metrics where hardware_id = ${nodes[1]!} and source <> 'hourly_agg' and ts < ${new Date(HOT_HOUR)}`;
    expect(raw[0]!.n).toBeGreaterThan(0);
    expect((await retain(SMALL)).detail).toMatchObject({ complete: true });
    expect(await snapshot()).toEqual(reference);
  });
});

describe("the run log and discovery's scan jobs", () => {
  it("expire past warm, except each profile's and each target set's newest completed scan (the drift baseline)", async () => {
    now = T;
    await t.sql`truncate job_runs, scan_jobs cascade`;
    const old = new Date(WARM - DAY);
    const recent = new Date(T - DAY);
    await t.sql`insert into job_runs (job, trigger, started_at, finished_at, outcome) values
      ('discovery_profiles', 'schedule', ${old}, ${old}, 'success'), ('discovery_profiles', 'schedule', ${recent}, ${recent}, 'success')`;
    const [profile] = await t.sql`insert into discovery_profiles (name, targets) values ('lab', '["127.0.0.0/24"]') returning id`;
    const job = async (status: string, at: Date, fields: { profile?: number | null; targets?: string[] } = {}) =>
      (
        await t.sql`insert into scan_jobs (profile_id, targets, status, completed_at) values (${fields.profile ?? null}, ${t.sql.json(fields.targets ?? ["127.0.0.0/24"])}, ${status}, ${at}) returning id`
      )[0]!.id as number;
    const olderOfProfile = await job("completed", new Date(WARM - 2 * DAY), { profile: profile!.id });
    const baselineOfProfile = await job("completed", old, { profile: profile!.id });
    const failedOld = await job("failed", old, { profile: profile!.id });
    const adHocOlder = await job("completed", new Date(WARM - 3 * DAY), { targets: ["127.0.1.0/24"] });
    const adHocBaseline = await job("completed", old, { targets: ["127.0.1.0/24"] });
    const recentJob = await job("completed", recent, { targets: ["127.0.2.0/24"] });
    await t.sql`insert into scan_results (scan_job_id, ip_address) values (${olderOfProfile}, '127.0.0.5'), (${baselineOfProfile}, '127.0.0.5')`;

    const out = await retain();
    expect(out.detail).toMatchObject({ expired: { job_runs: 1, scan_jobs: 3 } });
    expect((await t.sql`select started_at from job_runs`).map((r) => r.started_at.getTime())).toEqual([recent.getTime()]);
    const kept = (await t.sql`select id from scan_jobs order by id`).map((r) => r.id);
    expect(kept).toEqual([baselineOfProfile, adHocBaseline, recentJob]);
    expect(kept).not.toContain(failedOld);
    expect(kept).not.toContain(adHocOlder);
    expect((await t.sql`select scan_job_id from scan_results`).map((r) => r.scan_job_id)).toEqual([baselineOfProfile]);
  });
});

describe("status page subscribers' messages", () => {
  it("expire past warm once delivered or dead; one still being delivered, and recent ones, stay", async () => {
    now = T;
    const [page] = await t.sql`insert into status_pages (slug, title, published) values ('retention-page', 'Retention', true) returning id`;
    const [sub] = await t.sql`insert into status_page_subscribers (page_id, kind, address, confirmed_at, confirm_sent_at)
      values (${page!.id}, 'email', 'keep@example.org', now(), now()) returning id`;
    const old = new Date(WARM - DAY);
    const recent = new Date(T - DAY);
    const delivery = async (state: string, at: Date) =>
      (
        await t.sql`insert into notification_deliveries (subscriber_id, notice, state, max_attempts, created_at, updated_at)
          values (${sub!.id}, ${t.sql.json({ subject: "s", text: "t" })}, ${state}, 3, ${at}, ${at}) returning id`
      )[0]!.id as number;
    const goneDelivered = await delivery("delivered", old);
    const goneDead = await delivery("dead", old);
    const stillRetrying = await delivery("retrying", old);
    const recentDelivered = await delivery("delivered", recent);

    const out = await retain();
    expect(out.detail).toMatchObject({ expired: { subscriber_deliveries: 2 } });
    const kept = (await t.sql`select id from notification_deliveries where subscriber_id = ${sub!.id} order by id`).map((r) => r.id);
    expect(kept).toEqual([stillRetrying, recentDelivered]);
    expect(kept).not.toContain(goneDelivered);
    expect(kept).not.toContain(goneDead);
  });
});

describe("event rules' deliveries", () => {
  it("expire past warm once delivered or dead; one still being delivered, and recent ones, stay", async () => {
    now = T;
    const [sink] = await t.sql`insert into notification_sinks (name, provider_type, provider_config)
      values ('retention-hook', 'webhook', ${t.sql.json({ url: "http://127.0.0.1:9/hook" })}) returning id`;
    const old = new Date(WARM - DAY);
    const recent = new Date(T - DAY);
    const delivery = async (state: string, at: Date) =>
      (
        await t.sql`insert into notification_deliveries (sink_id, event, state, max_attempts, created_at, updated_at)
          values (${sink!.id}, ${t.sql.json({ event: "created", kind: "hardware", id: 1 })}, ${state}, 3, ${at}, ${at}) returning id`
      )[0]!.id as number;
    await delivery("delivered", old);
    await delivery("dead", old);
    const stillRetrying = await delivery("retrying", old);
    const recentDelivered = await delivery("delivered", recent);

    const out = await retain();
    expect(out.detail).toMatchObject({ expired: { event_deliveries: 2 } });
    const kept = (await t.sql`select id from notification_deliveries where sink_id = ${sink!.id} order by id`).map((r) => r.id);
    expect(kept).toEqual([stillRetrying, recentDelivered]);
  });
});
