// The retention job over the same 1,000 nodes x 30 days of 5-minute samples (8.64 million rows at
// BENCH_SCALE=1), run with the clock one day past the seed: one day expires, 23 days are downsampled in
// place, 6 stay raw. While it runs, an ingestion loop keeps pushing samples through the real HTTP API
// (POST /hardware/{id}/telemetry/samples with a write:telemetry token); its latency is reported beside
// the same loop's latency before the job. The bare SQL beside the job: the same work as two unbatched
// statements (expiry, then delete-band-and-insert-aggregate) in one transaction, rolled back.
import { cryptoRandom } from "../../shared/clock.ts";
import { advisoryLockFor } from "../../shared/db/advisory-lock.ts";
import { silentLogger } from "../../shared/logger.ts";
import { runJob } from "../../shared/verbs/jobs/run-job.ts";
import { retentionCutoffs } from "../../shared/verbs/retention/cutoffs.ts";
import { retentionJob } from "../../shared/verbs/retention/retention-job.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { seedTelemetry, time } from "./analytics.bench.ts";
import { api, type BenchContext, type BenchRow, nextClient, round } from "./harness.ts";

const DAY = 86_400_000;
const PER_PUSH = 10;

function stats(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  const pick = (q: number) => round(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0);
  return { p50: pick(0.5), p99: pick(0.99), max: round(s.at(-1) ?? 0), n: s.length };
}

/** Pushes PER_PUSH fresh samples per request, one request after another, until `done()`. */
async function ingest(
  ctx: BenchContext,
  token: string,
  nodes: number[],
  done: () => boolean,
): Promise<{ times: number[]; errors: number; elapsed: number; firstError?: string }> {
  const times: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  for (let i = 0; !done(); i++) {
    const id = nodes[i % nodes.length]!;
    const ts = Date.now();
    const samples = Array.from({ length: PER_PUSH }, (_, k) => ({
      ts: new Date(ts - (PER_PUSH - k) * 1000).toISOString(),
      cpu_pct: (i + k) % 100,
      mem_pct: 50,
      disk_pct: 40,
    }));
    const t = performance.now();
    const res = await fetch(`${ctx.baseUrl}/api/v1/hardware/${id}/telemetry/samples`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-forwarded-for": nextClient() },
      body: JSON.stringify({ samples }),
    });
    const answer = await res.text();
    times.push(performance.now() - t);
    if (res.status !== 201) {
      errors++;
      firstError ??= `${res.status} ${answer.slice(0, 160)}`;
    }
  }
  return { times, errors, elapsed: performance.now() - start, ...(firstError ? { firstError } : {}) };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const seed = await seedTelemetry(ctx.sql, ctx.scale);
  try {
    const provider = ctx.runtime.deps.database;
    const db = provider.lease().db;
    const now = new Date(seed.end + DAY);
    const clock = { now: () => now };
    const env = { ctx: systemContext({ db, clock, random: cryptoRandom }), lock: advisoryLockFor(provider), logger: silentLogger };
    const c = retentionCutoffs(now, 7, 30);
    const band = ctx.sql`source <> 'hourly_agg' and ts >= ${c.warm}::timestamptz and ts < ${c.hotHour}::timestamptz`;
    const token = (
      (await api(ctx, "POST", "/api/v1/auth/api-token", { label: "bench retention pusher", scopes: ["write:telemetry"] })) as {
        token: string;
      }
    ).token;

    const bareRead = await time(
      () => ctx.sql`
      select hardware_id, date_trunc('hour', ts, 'UTC'), count(*), avg(cpu_pct), avg(mem_pct), avg(disk_pct), avg(temp_c), avg(net_rx_bps), avg(net_tx_bps), max(uptime_s)
      from hardware_live_metrics where ${band} group by 1, 2`,
    );
    const bareOneShot = await time(() =>
      ctx.sql
        .begin(async (tx) => {
          await tx`delete from hardware_live_metrics where ts < ${c.warm}::timestamptz`;
          await tx`with raw as (delete from hardware_live_metrics where ${band} returning *)
            insert into hardware_live_metrics (hardware_id, ts, cpu_pct, mem_pct, disk_pct, temp_c, net_rx_bps, net_tx_bps, uptime_s, status, source, sample_count)
            select hardware_id, date_trunc('hour', ts, 'UTC'), avg(cpu_pct), avg(mem_pct), avg(disk_pct), avg(temp_c), avg(net_rx_bps), avg(net_tx_bps), max(uptime_s),
              (array_agg(status order by ts desc))[1], 'hourly_agg', count(*) from raw group by 1, 2`;
          throw new Error("rollback");
        })
        .catch(() => undefined),
    );
    await ctx.sql`vacuum analyze hardware_live_metrics`; // the rolled-back rows are not the job's problem

    const idleUntil = performance.now() + 5000;
    const idle = await ingest(ctx, token, seed.nodes, () => performance.now() > idleUntil);

    let finished = false;
    const job = runJob(env, retentionJob, "manual").finally(() => (finished = true));
    const during = await ingest(ctx, token, seed.nodes, () => finished);
    const result = await job;
    if (result.outcome !== "success") throw new Error(`retention ${result.outcome}: ${result.error}`);
    const d = result.detail as {
      elapsed_ms: number;
      batches: number;
      expired: { hardware_live_metrics: number };
      live_metrics: { raw_rows: number; hourly_rows_written: number };
    };
    const rerun = await runJob(env, retentionJob, "manual");

    const i0 = stats(idle.times);
    const i1 = stats(during.times);
    const scope = `${seed.nodes.length} nodes, ${(seed.rows / 1e6).toFixed(2)}M rows (seeded in ${Math.round(seed.seed_ms / 1000)} s)`;
    return [
      {
        name: "retention job (target < 120 s)",
        total_ms: d.elapsed_ms,
        baseline_sql_ms: bareOneShot,
        note: `${scope}; ${d.expired.hardware_live_metrics} expired, ${d.live_metrics.raw_rows} raw rows -> ${d.live_metrics.hourly_rows_written} hourly rows in ${d.batches} batches; bare = the same work unbatched in one transaction (rolled back)`,
      },
      {
        name: "... bare read: the band's hourly aggregate",
        total_ms: bareRead,
        note: "select ... group by node, hour over the band (no writes)",
      },
      {
        name: `ingestion during retention: POST telemetry/samples (${PER_PUSH} samples)`,
        p50_ms: i1.p50,
        p99_ms: i1.p99,
        rps: Math.round((i1.n / during.elapsed) * 1000),
        note: `${i1.n} pushes, ${during.errors} errors${during.firstError ? ` (first: ${during.firstError})` : ""}, max ${i1.max} ms; idle before: p50 ${i0.p50} ms, p99 ${i0.p99} ms, ${Math.round((i0.n / idle.elapsed) * 1000)} req/s`,
      },
      {
        name: "retention rerun (nothing left to do)",
        total_ms: (rerun.detail as { elapsed_ms: number }).elapsed_ms,
        note: `rows touched: ${rerun.rows_touched}`,
      },
    ];
  } finally {
    await seed.cleanup();
  }
}
