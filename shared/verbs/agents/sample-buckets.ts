// Agent samples averaged into epoch-aligned buckets, for the history of one agent and the sparklines of
// many (spec/catalogue.tsv, group agents). Raw samples count one each; for the long ranges the hourly rollups of
// retention (spec 6.7) fill the hours before the oldest raw sample, weighted by how many samples each
// stood for. Temperatures and uptime are maxima, not averages; rollups carry neither.
import { inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { agentHostSamples, agentHostSamplesHourly } from "../../db/schema/index.ts";
import type { HistoryRange, SummaryValues } from "../../schemas/agents.ts";
import { iso } from "../resources/present.ts";

const HOUR_MS = 3_600_000;

export interface BucketPlan {
  windowMs: number;
  bucketS: number;
  /** The most points answered (the newest ones). */
  cap: number;
  /** Whether hourly rollups fill in where raw samples are gone. */
  hourly: boolean;
}

export const HISTORY_PLANS: Readonly<Record<HistoryRange, BucketPlan>> = {
  "1h": { windowMs: HOUR_MS, bucketS: 30, cap: 120, hourly: false },
  "6h": { windowMs: 6 * HOUR_MS, bucketS: 60, cap: 360, hourly: false },
  "24h": { windowMs: 24 * HOUR_MS, bucketS: 300, cap: 288, hourly: false },
  "7d": { windowMs: 7 * 24 * HOUR_MS, bucketS: 1800, cap: 336, hourly: true },
  "30d": { windowMs: 30 * 24 * HOUR_MS, bucketS: 3600, cap: 720, hourly: true },
};

/** GET /agents/metrics/series: the last 30 minutes in 75 s buckets. */
export const SERIES_PLAN: BucketPlan = { windowMs: 30 * 60_000, bucketS: 75, cap: 24, hourly: false };

export interface BucketPoint {
  collected_at: string;
  summary: SummaryValues;
  sample_count: number;
}

type Row = { agent_id: number; bucket: number; sample_count: number } & Record<keyof SummaryValues, number | null>;

const weighted = (column: string) => sql.raw(`sum(${column}::float8 * w) / nullif(sum(w) filter (where ${column} is not null), 0)`);

/** agent id -> its points, oldest first, at most plan.cap each; agents without samples are absent. */
export async function bucketedSamples(db: Db, agentIds: number[], plan: BucketPlan, now: Date): Promise<Map<number, BucketPoint[]>> {
  const out = new Map<number, BucketPoint[]>();
  if (agentIds.length === 0) return out;
  const since = sql`${new Date(now.getTime() - plan.windowMs).toISOString()}::timestamptz`;
  const until = sql`${now.toISOString()}::timestamptz`;
  const raw = sql`select agent_id, ts, cpu_pct, mem_pct, disk_pct, net_rx_bps, net_tx_bps, max_temp_c, load_1, uptime_s, 1 as w
    from ${agentHostSamples} where ${inArray(agentHostSamples.agent_id, agentIds)} and ts >= ${since} and ts <= ${until}`;
  // Rollups only for the hours before an agent's oldest raw sample in the window, so nothing counts twice.
  const h = agentHostSamplesHourly;
  const hourly = plan.hourly
    ? sql`union all select agent_id, hour, cpu_pct, mem_pct, disk_pct, net_rx_bps, net_tx_bps, null::real, load_1, null::float8, sample_count
        from ${h} where ${inArray(h.agent_id, agentIds)} and ${h.hour} >= ${since}
        and ${h.hour} < coalesce((select date_trunc('hour', min(r.ts)) from raw r where r.agent_id = ${h.agent_id}), ${until})`
    : sql``;
  const rows = await queryRows<Row>(
    db,
    sql`with raw as (${raw}), samples as (select * from raw ${hourly})
    select agent_id, (floor(extract(epoch from ts) / ${plan.bucketS}) * ${plan.bucketS})::float8 as bucket,
      ${weighted("cpu_pct")} as cpu_pct, ${weighted("mem_pct")} as mem_pct, ${weighted("disk_pct")} as root_disk_pct,
      ${weighted("net_rx_bps")} as net_rx_bps, ${weighted("net_tx_bps")} as net_tx_bps, max(max_temp_c)::float8 as max_temp_c,
      ${weighted("load_1")} as load_1, max(uptime_s)::float8 as uptime_s, sum(w)::int as sample_count
    from samples group by agent_id, bucket order by agent_id, bucket desc`,
  );
  for (const r of rows) {
    const points = out.get(r.agent_id) ?? [];
    if (points.length >= plan.cap) continue;
    points.push({
      collected_at: iso(new Date(Number(r.bucket) * 1000))!,
      summary: {
        cpu_pct: r.cpu_pct,
        mem_pct: r.mem_pct,
        root_disk_pct: r.root_disk_pct,
        net_rx_bps: r.net_rx_bps,
        net_tx_bps: r.net_tx_bps,
        max_temp_c: r.max_temp_c,
        load_1: r.load_1,
        uptime_s: r.uptime_s,
      },
      sample_count: r.sample_count,
    });
    out.set(r.agent_id, points);
  }
  for (const points of out.values()) points.reverse();
  return out;
}
