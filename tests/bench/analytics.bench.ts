// The analytics job over 1,000 nodes x 30 days of 5-minute samples (8.64 million live-metric rows at
// BENCH_SCALE=1; nodes scale with BENCH_SCALE), seeded by one INSERT ... SELECT generate_series, with
// status changes for 10 % of the nodes (5 % of them flapping now). The job (three passes, under its
// lock, recorded) is timed beside the bare SQL each pass rests on: the regression aggregate, the 30-day
// average/peak aggregate and the 30-minute window count.
import type postgres from "postgres";
import { cryptoRandom } from "../../shared/clock.ts";
import { advisoryLockFor } from "../../shared/db/advisory-lock.ts";
import { silentLogger } from "../../shared/logger.ts";
import { analyticsJob } from "../../shared/verbs/analytics/analytics-job.ts";
import { forecastCapacity } from "../../shared/verbs/analytics/capacity-forecast.ts";
import { detectFlaps } from "../../shared/verbs/analytics/flap-detection.ts";
import { rightSize } from "../../shared/verbs/analytics/right-sizing.ts";
import { runJob } from "../../shared/verbs/jobs/run-job.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import type { BenchContext, BenchRow } from "./harness.ts";

const DAY = 86_400_000;
const FIVE_MIN = 300_000;

export interface TelemetrySeed {
  nodes: number[];
  rows: number;
  /** The end of the seeded 30 days (exclusive), on a 5-minute boundary. */
  end: number;
  seed_ms: number;
  /** Deletes what the seed wrote (truncating when the tables were empty before). */
  cleanup(): Promise<void>;
}

/** Milliseconds one call takes. */
export const time = async (fn: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await fn();
  return Math.round(performance.now() - t);
};

/** 1,000 x BENCH_SCALE nodes (at least 10) of the seeded inventory, 30 days of 5-minute samples each. */
export async function seedTelemetry(sql: postgres.Sql, scale: number): Promise<TelemetrySeed> {
  const count = Math.max(10, Math.round(1000 * scale));
  const nodes = (await sql<{ id: number }[]>`select id from hardware order by id limit ${count}`).map((r) => r.id);
  if (nodes.length < count) throw new Error(`the inventory has ${nodes.length} hardware nodes, ${count} wanted`);
  const [probe] = await sql<
    { empty: boolean }[]
  >`select not exists (select 1 from hardware_live_metrics) and not exists (select 1 from status_history) as empty`;
  const end = Math.floor(Date.now() / FIVE_MIN) * FIVE_MIN;
  const start = new Date(end - 30 * DAY);
  const seed_ms = await time(async () => {
    // Node classes by position: every 10th runs hot, every 10th+1 idles, the rest sit in between; disks
    // fill at -0.2..+0.4 points a day; every sample reports status "up".
    await sql`
      insert into hardware_live_metrics (hardware_id, ts, cpu_pct, mem_pct, disk_pct, temp_c, net_rx_bps, net_tx_bps, uptime_s, status, source)
      select h.id, ${start}::timestamptz + g.k * interval '5 minutes',
        case when h.rn % 10 = 0 then 70 + (h.rn + g.k) % 25 when h.rn % 10 = 1 then (h.rn + g.k) % 9 else 20 + (h.rn * 7 + g.k * 13) % 50 end,
        case when h.rn % 10 = 1 then 5 + g.k % 8 else 30 + (h.rn * 3 + g.k) % 40 end,
        least(100, 20 + h.rn % 50 + ((h.rn % 7) * 0.1 - 0.2) * g.k / 288.0),
        45 + g.k % 10, 1000 * (g.k % 97), 500 * (g.k % 89), g.k * 300, 'up', 'push'
      from (select id, row_number() over (order by id) as rn from hardware where id = any(${nodes})) h
      cross join generate_series(0, 8639) as g(k)`;
    // Status history: 10 % of the nodes changed status every few hours yesterday; half of them (5 %)
    // are flapping now (6 changes in the last 25 minutes).
    await sql`
      insert into status_history (entity_type, entity_id, status, previous_status, created_at)
      select 'hardware', h.id, case when c % 2 = 0 then 'down' else 'up' end, case when c % 2 = 0 then 'up' else 'down' end,
        case when h.rn % 20 = 0 and c >= 8 then ${new Date(end)}::timestamptz - (13 - c) * interval '5 minutes'
             else ${new Date(end)}::timestamptz - interval '1 day' + c * interval '150 minutes' end
      from (select id, row_number() over (order by id) as rn from hardware where id = any(${nodes})) h
      cross join generate_series(0, 13) c
      where h.rn % 10 = 0`;
    await sql`analyze hardware_live_metrics`;
    await sql`analyze status_history`;
  });
  const [counted] = await sql<
    { rows: number }[]
  >`select count(*)::int as rows from hardware_live_metrics where hardware_id = any(${nodes})`;
  return {
    nodes,
    rows: counted!.rows,
    end,
    seed_ms,
    cleanup: async () => {
      if (probe!.empty) await sql`truncate hardware_live_metrics, status_history, agent_host_samples, agent_host_samples_hourly`;
      else {
        await sql`delete from hardware_live_metrics where hardware_id = any(${nodes})`;
        await sql`delete from status_history where entity_type = 'hardware' and entity_id = any(${nodes})`;
      }
      await sql`delete from capacity_forecasts where hardware_id = any(${nodes})`;
      await sql`delete from resource_recommendations where asset_type = 'hardware' and asset_id = any(${nodes})`;
      await sql`delete from flap_incidents where hardware_id = any(${nodes})`;
    },
  };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const seed = await seedTelemetry(ctx.sql, ctx.scale);
  try {
    const provider = ctx.runtime.deps.database;
    const db = provider.lease().db;
    const now = new Date(seed.end);
    const clock = { now: () => now };
    const from14 = new Date(seed.end - 14 * DAY);
    const from30 = new Date(seed.end - 30 * DAY);

    // Bare SQL first (cold-ish cache for both, as the job's first pass also reads from disk or cache).
    const bareRegression = await time(
      () => ctx.sql`
      select hardware_id, regr_slope(disk_pct::float8, date_part('epoch', ts) / 86400), regr_intercept(disk_pct::float8, date_part('epoch', ts) / 86400),
        regr_slope(mem_pct::float8, date_part('epoch', ts) / 86400), regr_intercept(mem_pct::float8, date_part('epoch', ts) / 86400), count(*)
      from hardware_live_metrics where ts > ${from14} and ts <= ${now} group by hardware_id`,
    );
    const bareAverages = await time(
      () => ctx.sql`
      select hardware_id, avg(cpu_pct), max(cpu_pct), avg(mem_pct) from hardware_live_metrics where ts > ${from30} and ts <= ${now} group by hardware_id`,
    );
    const bareWindow = await time(
      () => ctx.sql`
      select entity_id, max(n) from (
        select entity_id, count(*) over (partition by entity_id order by created_at range between interval '30 minutes' preceding and current row) as n
        from status_history where entity_type = 'hardware' and created_at >= ${new Date(seed.end - DAY)}
      ) w group by entity_id`,
    );

    const system = systemContext({ db, clock, random: cryptoRandom });
    const job = await runJob({ ctx: system, lock: advisoryLockFor(provider), logger: silentLogger }, analyticsJob, "manual");
    if (job.outcome !== "success") throw new Error(`analytics ${job.outcome}: ${job.error}`);
    const d = job.detail as {
      elapsed_ms: number;
      capacity_forecast: { upserted: number };
      right_sizing: { recommendations: number };
      flap_detection: { opened: number };
    };

    // Each pass again on its own (second run: upserts over existing rows).
    const capacity = await time(() => forecastCapacity({ ctx: system, input: { now } }));
    const sizing = await time(() => rightSize({ ctx: system, input: { now } }));
    const flaps = await time(() => detectFlaps({ ctx: system, input: { now } }));

    const scope = `${seed.nodes.length} nodes, ${(seed.rows / 1e6).toFixed(2)}M rows (seeded in ${Math.round(seed.seed_ms / 1000)} s)`;
    return [
      {
        name: "analytics job, 3 passes (target < 60 s)",
        total_ms: d.elapsed_ms,
        baseline_sql_ms: bareRegression + bareAverages + bareWindow,
        note: `${scope}; ${d.capacity_forecast.upserted} forecasts, ${d.right_sizing.recommendations} recommendations, ${d.flap_detection.opened} flap incidents; bare = the three aggregates below`,
      },
      {
        name: "... pass 1: capacity forecast (rerun)",
        total_ms: capacity,
        baseline_sql_ms: bareRegression,
        note: "bare: regr_slope/regr_intercept of both metrics over 14 days, grouped by node",
      },
      {
        name: "... pass 2: right-sizing (rerun)",
        total_ms: sizing,
        baseline_sql_ms: bareAverages,
        note: "bare: 30-day avg/max/avg grouped by node (unweighted)",
      },
      {
        name: "... pass 3: flap detection (rerun)",
        total_ms: flaps,
        baseline_sql_ms: bareWindow,
        note: "bare: the 30-minute range window over 24 h of status history",
      },
    ];
  } finally {
    await seed.cleanup();
  }
}
