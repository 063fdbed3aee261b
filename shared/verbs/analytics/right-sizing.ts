// Analytics pass 2 (spec 3.3, 6.7): 30-day CPU average, CPU peak and memory average per asset, then the
// spec's classification. Only hardware nodes have telemetry (hardware_live_metrics); compute units have
// no telemetry table yet, so they are not evaluated. Averages weigh an hourly_agg row by its
// sample_count, so downsampled days count as much as raw ones; the peak is the highest stored value
// (for downsampled days, the highest hourly average). An asset needs both CPU and memory samples.
// Balanced assets get no row, and lose any old one; so do assets without samples in the window.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { classify, RIGHT_SIZING_WINDOW_DAYS, recommendationText, type Usage } from "../../domain/classification.ts";
import { DAY_MS } from "../../domain/regression.ts";
import { JOBS_SCOPE } from "../jobs/scope.ts";
import { defineVerb } from "../verb.ts";

export const RIGHT_SIZING_NOTE = "Only hardware nodes are evaluated: compute units have no telemetry table yet.";

const weightedAvg = (column: string) => {
  const c = sql.raw(column);
  return sql`sum(${c}::float8 * coalesce(sample_count, 1)) filter (where ${c} is not null) / nullif(sum(coalesce(sample_count, 1)) filter (where ${c} is not null), 0)`;
};

/** Pass 2 of the analytics job, as whoever runs it: the usage read and the upsert in one transaction. */
export const rightSize = defineVerb<{ now: Date }, { assets_evaluated: number; recommendations: number; removed: number }>(
  { scope: JOBS_SCOPE },
  async ({ tx: db }, { now }) => {
    const from = new Date(now.getTime() - RIGHT_SIZING_WINDOW_DAYS * DAY_MS).toISOString();
    const usage = await queryRows<Usage & { hardware_id: number }>(
      db,
      sql`select hardware_id, ${weightedAvg("cpu_pct")} as cpu_avg_pct, max(cpu_pct)::float8 as cpu_peak_pct, ${weightedAvg("mem_pct")} as mem_avg_pct
      from hardware_live_metrics
      where ts > ${from}::timestamptz and ts <= ${now.toISOString()}::timestamptz
      group by hardware_id
      having count(cpu_pct) > 0 and count(mem_pct) > 0`,
    );
    const rows = usage.flatMap((u) => {
      const recommendation = recommendationText(u);
      return recommendation
        ? [
            {
              asset_id: u.hardware_id,
              classification: classify(u),
              cpu_avg_pct: u.cpu_avg_pct,
              cpu_peak_pct: u.cpu_peak_pct,
              mem_avg_pct: u.mem_avg_pct,
              recommendation,
            },
          ]
        : [];
    });
    const [row] = await queryRows<{ upserted: number; removed: number }>(
      db,
      sql`with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as r(asset_id int, classification text, cpu_avg_pct float8, cpu_peak_pct float8, mem_avg_pct float8, recommendation text)
    ), upsert as (
      insert into resource_recommendations (asset_type, asset_id, classification, cpu_avg_pct, cpu_peak_pct, mem_avg_pct, recommendation, evaluated_at)
      select 'hardware', asset_id, classification, cpu_avg_pct, cpu_peak_pct, mem_avg_pct, recommendation, ${now.toISOString()}::timestamptz from input
      on conflict (asset_type, asset_id) do update set
        classification = excluded.classification, cpu_avg_pct = excluded.cpu_avg_pct, cpu_peak_pct = excluded.cpu_peak_pct,
        mem_avg_pct = excluded.mem_avg_pct, recommendation = excluded.recommendation, evaluated_at = excluded.evaluated_at
      returning asset_id
    ), removed as (
      delete from resource_recommendations r
      where r.asset_type = 'hardware' and not exists (select 1 from input i where i.asset_id = r.asset_id)
      returning 1
    )
    select (select count(*) from upsert)::int as upserted, (select count(*) from removed)::int as removed`,
    );
    return { assets_evaluated: usage.length, recommendations: row?.upserted ?? 0, removed: row?.removed ?? 0 };
  },
);
