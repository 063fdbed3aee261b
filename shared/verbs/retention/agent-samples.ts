// agent_host_samples between hot and warm (spec 6.7): collapsed into agent_host_samples_hourly (one row
// per agent and hour, upserted on (agent_id, hour)) and deleted, in the same statement. An hour that
// already has a row (late samples) is merged weighted by sample_count, so the hourly average stays the
// average of every sample and a rerun is exact. hardware_id is the hour's last known one.
import { type SQL, sql } from "drizzle-orm";
import { type BatchBudget, type BatchRange, batchStatement, eachBatch, weightedMerge } from "./batches.ts";
import type { VerbContext } from "../verb-context.ts";
import type { RetentionCutoffs } from "./cutoffs.ts";

const AVERAGED = ["cpu_pct", "mem_pct", "disk_pct", "load_1", "net_rx_bps", "net_tx_bps"] as const;

export interface AgentSampleCounts {
  raw_rows: number;
  hourly_rows: number;
}

function statement(band: SQL, range: BatchRange): SQL {
  const cols = sql.raw(AVERAGED.join(", "));
  const avgs = sql.raw(AVERAGED.map((c) => `avg(${c}) as ${c}`).join(", "));
  const merges = sql.join(
    AVERAGED.map((c) => weightedMerge(c, { alias: "m", count: "m.sample_count" }, { alias: "excluded", count: "excluded.sample_count" })),
    sql`, `,
  );
  return sql`with raw as (
      delete from agent_host_samples where ${band} and ${range()}
      returning agent_id, hardware_id, ts, ${cols}
    ), agg as (
      select agent_id, date_trunc('hour', ts, 'UTC') as hour, count(*)::int as n, ${avgs},
        (array_agg(hardware_id order by ts desc) filter (where hardware_id is not null))[1] as hardware_id
      from raw group by 1, 2
    ), upserted as (
      insert into agent_host_samples_hourly as m (agent_id, hour, hardware_id, ${cols}, sample_count)
      select agent_id, hour, hardware_id, ${cols}, n from agg
      on conflict (agent_id, hour) do update set ${merges},
        hardware_id = coalesce(excluded.hardware_id, m.hardware_id), sample_count = m.sample_count + excluded.sample_count
      returning 1
    )
    select (select count(*) from raw)::int as raw_rows, (select count(*) from upserted)::int as hourly_rows`;
}

export async function collapseAgentSamples(
  ctx: VerbContext,
  c: RetentionCutoffs,
  rows: number,
  budget: BatchBudget,
): Promise<AgentSampleCounts & { complete: boolean }> {
  const band = sql`ts >= ${c.warm}::timestamptz and ts < ${c.hotHour}::timestamptz`;
  const totals: AgentSampleCounts = { raw_rows: 0, hourly_rows: 0 };
  const complete = await eachBatch(ctx, { table: "agent_host_samples", entity: "agent_id", bounds: band }, rows, budget, async (range) => {
    const r = await batchStatement<AgentSampleCounts>(ctx, statement(band, range));
    if (r) {
      totals.raw_rows += r.raw_rows;
      totals.hourly_rows += r.hourly_rows;
    }
  });
  return { ...totals, complete };
}
