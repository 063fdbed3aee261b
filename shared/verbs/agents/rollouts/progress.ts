// A target's state follows its agent's update.status (docs/adr/0430): the link batch that stores the
// `update_<phase>` events calls this in the same transaction, so the rollout moves on the moment the
// last report of a wave is committed, in whichever sidecar holds the link. Only a report of the target's
// own version counts, and only from queued or started (a target's outcome is final).
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import type { VerbScope } from "../../verb.ts";
import { lockRollouts, stepRollout, touchRollout } from "./advance.ts";

export interface UpdateReport {
  agent_id: number;
  phase: "started" | "succeeded" | "failed" | "rolled_back";
  version: string;
  error: string | null;
}

/** The reports in the order the agents sent them; the rollouts they concern are locked first (the order every caller takes). */
export async function recordRolloutProgress(s: VerbScope, reports: readonly UpdateReport[]): Promise<void> {
  if (reports.length === 0) return;
  const ids = [...new Set(reports.map((r) => r.agent_id))];
  const concerned = await queryRows<{ rollout_id: number }>(
    s.tx,
    sql`select distinct rollout_id from agent_rollout_targets
        where agent_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int) and state in ('queued', 'started')`,
  );
  if (concerned.length === 0) return;
  const rollouts = await lockRollouts(
    s.tx,
    concerned.map((r) => r.rollout_id),
  );
  const locked = rollouts.map((r) => r.id);
  const changed = new Set<number>();
  for (const r of reports) {
    const from = r.phase === "started" ? sql`('queued')` : sql`('queued', 'started')`;
    const rows = await queryRows<{ rollout_id: number }>(
      s.tx,
      sql`update agent_rollout_targets set state = ${r.phase}, error = ${r.error}, updated_at = ${s.now.toISOString()}::timestamptz
          where agent_id = ${r.agent_id} and state in ${from} and build->>'version' = ${r.version}
            and rollout_id in (select jsonb_array_elements_text(${JSON.stringify(locked)}::jsonb)::int)
          returning rollout_id`,
    );
    for (const row of rows) changed.add(row.rollout_id);
  }
  for (const rollout of rollouts) {
    if (!changed.has(rollout.id)) continue;
    await touchRollout(s, rollout.id);
    await stepRollout(s, rollout);
  }
}
