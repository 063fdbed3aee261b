// hardware_live_metrics between hot and warm (spec 6.7): raw rows replaced IN PLACE by one row per node
// per hour with source "hourly_agg" and sample_count, averaging the percentages, temperature and network
// rates; uptime_s takes the hour's largest value and status the hour's last reported status. Late raw
// rows for an hour already aggregated are folded into its row, weighted by sample_count (its status is
// kept unless it had none).
import { type SQL, sql } from "drizzle-orm";
import { type BatchBudget, type BatchRange, batchStatement, eachBatch, weightedMerge } from "./batches.ts";
import type { VerbContext } from "../verb-context.ts";
import type { RetentionCutoffs } from "./cutoffs.ts";

const AVERAGED = ["cpu_pct", "mem_pct", "disk_pct", "temp_c", "net_rx_bps", "net_tx_bps"] as const;

export interface LiveMetricsCounts {
  raw_rows: number;
  hourly_rows_written: number;
  hourly_rows_merged: number;
}

function statement(band: SQL, range: BatchRange): SQL {
  const avgs = sql.raw(AVERAGED.map((c) => `avg(${c}) as ${c}`).join(", "));
  const merges = sql.join(
    AVERAGED.map((c) => weightedMerge(c, { alias: "m", count: "coalesce(m.sample_count, 1)" }, { alias: "a", count: "a.n" })),
    sql`, `,
  );
  const cols = sql.raw(AVERAGED.join(", "));
  const aCols = sql.raw(AVERAGED.map((c) => `a.${c}`).join(", "));
  return sql`with raw as (
      delete from hardware_live_metrics where ${band} and ${range()}
      returning hardware_id, ts, ${cols}, uptime_s, status
    ), agg as (
      select hardware_id, date_trunc('hour', ts, 'UTC') as hour, count(*)::int as n, ${avgs}, max(uptime_s) as uptime_s,
        (array_agg(status order by ts desc) filter (where status is not null))[1] as status
      from raw group by 1, 2
    ), merged as (
      update hardware_live_metrics m set ${merges},
        uptime_s = greatest(m.uptime_s, a.uptime_s), status = coalesce(m.status, a.status),
        sample_count = coalesce(m.sample_count, 1) + a.n
      from agg a
      where m.source = 'hourly_agg' and ${range("m")} and m.hardware_id = a.hardware_id and m.ts = a.hour
      returning m.hardware_id, m.ts
    ), inserted as (
      insert into hardware_live_metrics (hardware_id, ts, ${cols}, uptime_s, status, source, sample_count)
      select a.hardware_id, a.hour, ${aCols}, a.uptime_s, a.status, 'hourly_agg', a.n from agg a
      where not exists (select 1 from merged x where x.hardware_id = a.hardware_id and x.ts = a.hour)
      returning 1
    )
    select (select count(*) from raw)::int as raw_rows, (select count(*) from inserted)::int as hourly_rows_written,
      (select count(*) from merged)::int as hourly_rows_merged`;
}

export async function downsampleLiveMetrics(
  ctx: VerbContext,
  c: RetentionCutoffs,
  rows: number,
  budget: BatchBudget,
): Promise<LiveMetricsCounts & { complete: boolean }> {
  const bounds = sql`ts >= ${c.warm}::timestamptz and ts < ${c.hotHour}::timestamptz`;
  const band = sql`source <> 'hourly_agg' and ${bounds}`;
  const totals: LiveMetricsCounts = { raw_rows: 0, hourly_rows_written: 0, hourly_rows_merged: 0 };
  const complete = await eachBatch(ctx, { table: "hardware_live_metrics", entity: "hardware_id", bounds }, rows, budget, async (range) => {
    const r = await batchStatement<LiveMetricsCounts>(ctx, statement(band, range));
    if (r) for (const k of Object.keys(totals) as (keyof LiveMetricsCounts)[]) totals[k] += r[k];
  });
  return { ...totals, complete };
}
