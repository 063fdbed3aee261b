// Analytics pass 1 (spec 2.2, 6.7): per hardware node and metric (disk_pct, mem_pct), an ordinary
// least-squares line over the last 14 days of live metrics from any source (hourly_agg included; each
// row is one point, unweighted), fitted by PostgreSQL's regr_slope/regr_intercept over (epoch days,
// percent) in one pass over the table. Decisions:
// - enough history: at least 10 samples spanning at least 2 days; a node/metric without it gets no row
//   and loses an old one;
// - current_value: the latest observed value (not the fitted value at now);
// - projected_full_at: only for slope > 0, the instant the line reaches 100 (UTC); a line already above
//   100 gives the past instant it crossed; one that would cross after year 9999 gives null.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import {
  DAY_MS,
  EARLIEST_PROJECTION_MS,
  FORECAST_MIN_SAMPLES,
  FORECAST_MIN_SPAN_DAYS,
  FORECAST_WINDOW_DAYS,
  FULL_PCT,
  LATEST_PROJECTION_MS,
  WARNING_THRESHOLD_DAYS,
} from "../../domain/regression.ts";
import { METRICS } from "../../domain/alert-rules/metrics.ts";
import { evaluateSamples } from "../alert-rules/evaluate-samples.ts";
import { JOBS_SCOPE } from "../jobs/scope.ts";
import { defineVerb, type VerbScope } from "../verb.ts";

export const FORECAST_METRICS = ["disk_pct", "mem_pct"] as const;

/** One regression per metric, all in the same scan: slope, intercept, sample count and time span. */
function fitColumns(metric: (typeof FORECAST_METRICS)[number]) {
  const y = sql.raw(`${metric}::float8`);
  const present = sql.raw(`${metric} is not null`);
  const p = metric;
  return sql`regr_slope(${y}, date_part('epoch', ts) / 86400) as ${sql.raw(`${p}_slope`)},
    regr_intercept(${y}, date_part('epoch', ts) / 86400) as ${sql.raw(`${p}_intercept`)},
    count(${sql.raw(metric)})::int as ${sql.raw(`${p}_n`)},
    date_part('epoch', max(ts) filter (where ${present}) - min(ts) filter (where ${present})) / 86400 as ${sql.raw(`${p}_span`)}`;
}

/** Pass 1 of the analytics job, as whoever runs it. */
export const forecastCapacity = defineVerb<{ now: Date }, { upserted: number; removed: number }>(
  { scope: JOBS_SCOPE },
  async (s, { now }) => {
    const db = s.tx;
    const from = new Date(now.getTime() - FORECAST_WINDOW_DAYS * DAY_MS).toISOString();
    const at = now.toISOString();
    const [row] = await queryRows<{ upserted: number; removed: number }>(
      db,
      sql`with per_node as (
      select hardware_id, ${fitColumns("disk_pct")}, ${fitColumns("mem_pct")}
      from hardware_live_metrics
      where ts > ${from}::timestamptz and ts <= ${at}::timestamptz
      group by hardware_id
    ), fit as (
      select p.hardware_id, m.metric, m.slope, m.intercept
      from per_node p
      cross join lateral (values
        ('disk_pct', p.disk_pct_slope, p.disk_pct_intercept, p.disk_pct_n, p.disk_pct_span),
        ('mem_pct', p.mem_pct_slope, p.mem_pct_intercept, p.mem_pct_n, p.mem_pct_span)
      ) as m(metric, slope, intercept, n, span)
      where m.n >= ${FORECAST_MIN_SAMPLES} and m.span >= ${FORECAST_MIN_SPAN_DAYS} and m.slope is not null
    ), latest as (
      select f.*, l.value as current_value
      from fit f
      cross join lateral (
        select (case when f.metric = 'disk_pct' then h.disk_pct else h.mem_pct end)::float8 as value
        from hardware_live_metrics h
        where h.hardware_id = f.hardware_id and h.ts <= ${at}::timestamptz
          and (case when f.metric = 'disk_pct' then h.disk_pct else h.mem_pct end) is not null
        order by h.ts desc
        limit 1
      ) l
    ), crossing as (
      select *, case when slope > 0 then (${FULL_PCT} - intercept) / slope * 86400 end as full_epoch from latest
    ), upsert as (
      insert into capacity_forecasts (hardware_id, metric, slope_per_day, current_value, projected_full_at, warning_threshold_days, evaluated_at)
      select hardware_id, metric, slope, current_value,
        case when full_epoch between ${EARLIEST_PROJECTION_MS / 1000} and ${LATEST_PROJECTION_MS / 1000} then to_timestamp(full_epoch) end,
        ${WARNING_THRESHOLD_DAYS}, ${at}::timestamptz
      from crossing
      on conflict (hardware_id, metric) do update set
        slope_per_day = excluded.slope_per_day, current_value = excluded.current_value,
        projected_full_at = excluded.projected_full_at, warning_threshold_days = excluded.warning_threshold_days,
        evaluated_at = excluded.evaluated_at
      returning hardware_id, metric
    ), removed as (
      delete from capacity_forecasts c
      where not exists (select 1 from upsert u where u.hardware_id = c.hardware_id and u.metric = c.metric)
      returning 1
    )
    select (select count(*) from upsert)::int as upserted, (select count(*) from removed)::int as removed`,
    );
    await evaluateForecasts(s, now);
    return { upserted: row?.upserted ?? 0, removed: row?.removed ?? 0 };
  },
);

/**
 * The forecast.* rules judge the forecasts just written: days until full (never full, or no forecast
 * any more while a rule fires on the node: infinitely far, which clears it).
 */
async function evaluateForecasts(s: VerbScope, now: Date): Promise<void> {
  const rows = await queryRows<{ hardware_id: number; metric: string; projected_full_at: Date | string | null }>(
    s.tx,
    sql`select hardware_id, metric, projected_full_at from capacity_forecasts
      union all
      select st.hardware_id, substring(r.metric from 'forecast\.(.*)_full_days') || '_pct', null from alert_rule_states st
        join alert_rules r on r.id = st.rule_id
      where r.metric like 'forecast.%' and st.state <> 'ok'
        and not exists (select 1 from capacity_forecasts c where c.hardware_id = st.hardware_id and c.metric = substring(r.metric from 'forecast\.(.*)_full_days') || '_pct')`,
  );
  const byNode = new Map<number, Record<string, number>>();
  for (const r of rows) {
    const def = METRICS.find((m) => m.source === "forecast" && m.column === r.metric);
    if (!def) continue;
    const days =
      r.projected_full_at == null ? Number.POSITIVE_INFINITY : (new Date(r.projected_full_at).getTime() - now.getTime()) / DAY_MS;
    byNode.set(r.hardware_id, { ...byNode.get(r.hardware_id), [def.name]: days });
  }
  await evaluateSamples(
    s,
    [...byNode].map(([hardware_id, values]) => ({ hardware_id, ts: now, values })),
  );
}
