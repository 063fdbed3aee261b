// The rollout as the API answers it (shared/schemas/agent-rollouts.ts): its settings and state, how many
// targets are in each state, and on GET of one its targets in wave and agent order. A page of rollouts
// costs one more query for the counts whatever its size.
import { asc, eq, sql } from "drizzle-orm";
import type * as v from "valibot";
import { type Db, queryRows } from "../../../db/database.ts";
import { agentRolloutTargets } from "../../../db/schema/index.ts";
import {
  type ROLLOUT_STATES,
  type RolloutRead,
  type RolloutSummary,
  TARGET_STATES,
  type TargetState,
} from "../../../schemas/agent-rollouts.ts";
import { iso } from "../../resources/present.ts";
import type { RolloutRow } from "./advance.ts";

export type RolloutSummaryShape = v.InferInput<typeof RolloutSummary>;
export type RolloutReadShape = v.InferInput<typeof RolloutRead>;

type Counts = Record<TargetState, number>;
const zero = (): Counts => Object.fromEntries(TARGET_STATES.map((s) => [s, 0])) as Counts;

async function countsOf(db: Db, ids: number[]): Promise<Map<number, { counts: Counts; waves: number }>> {
  const out = new Map(ids.map((id) => [id, { counts: zero(), waves: 0 }]));
  if (ids.length === 0) return out;
  const rows = await queryRows<{ rollout_id: number; state: TargetState; n: number; waves: number }>(
    db,
    sql`select rollout_id, state, count(*)::int as n, max(wave)::int as waves from agent_rollout_targets
        where rollout_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int) group by rollout_id, state`,
  );
  for (const r of rows) {
    const entry = out.get(r.rollout_id)!;
    entry.counts[r.state] = r.n;
    entry.waves = Math.max(entry.waves, r.waves);
  }
  return out;
}

function summaryOf(r: RolloutRow, c: { counts: Counts; waves: number }): RolloutSummaryShape {
  return {
    id: r.id,
    state: r.state as (typeof ROLLOUT_STATES)[number],
    version: r.version,
    wave_percent: r.wave_percent,
    failure_threshold: r.failure_threshold,
    wave_timeout_seconds: r.wave_timeout_seconds,
    current_wave: r.current_wave,
    waves: c.waves,
    failures_acknowledged: r.failures_acknowledged,
    stop_reason: r.stop_reason,
    counts: c.counts,
    total: Object.values(c.counts).reduce((a, b) => a + b, 0),
    created_by: r.created_by,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    finished_at: iso(r.finished_at),
  };
}

export async function presentRolloutSummaries(db: Db, rows: RolloutRow[]): Promise<RolloutSummaryShape[]> {
  const counts = await countsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => summaryOf(r, counts.get(r.id)!));
}

export async function presentRollout(db: Db, row: RolloutRow): Promise<RolloutReadShape> {
  const [summary] = await presentRolloutSummaries(db, [row]);
  const targets = await db
    .select()
    .from(agentRolloutTargets)
    .where(eq(agentRolloutTargets.rollout_id, row.id))
    .orderBy(asc(agentRolloutTargets.wave), asc(agentRolloutTargets.agent_id));
  return {
    ...summary!,
    targets: targets.map((t) => ({
      agent_id: t.agent_id,
      hostname: t.hostname,
      wave: t.wave,
      state: t.state as TargetState,
      error: t.error,
      updated_at: iso(t.updated_at)!,
    })),
  };
}
