// The sidecar's periodic pass over rollouts (docs/adr/0430), the safety net under the link batch's
// immediate advance: a target whose agent now runs the target's version is succeeded (it linked with the
// new version without a report); one queued longer than its rollout's wave_timeout_seconds without a
// terminal report is failed (and its queued update withdrawn, so it is not sent on the agent's next
// link); then every running rollout takes a step (which also finishes one whose last advance was missed,
// e.g. by a restart between two commits). Rows another sidecar is working on are left to it.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { defineVerb } from "../../verb.ts";
import { ADMIN_AGENTS } from "../scopes.ts";
import { lockRollouts, stepRollout, touchRollout } from "./advance.ts";

export interface SweepOutcome {
  rollouts: number;
  succeeded: number;
  timed_out: number;
}

export const sweepRollouts = defineVerb<undefined, SweepOutcome>({ scope: ADMIN_AGENTS }, async (s) => {
  const at = sql`${s.now.toISOString()}::timestamptz`;
  const due = await queryRows<{ id: number }>(
    s.tx,
    sql`select r.id from agent_rollouts r where r.state = 'running'
        union
        select t.rollout_id from agent_rollout_targets t
          join agent_rollouts r on r.id = t.rollout_id join agents a on a.id = t.agent_id
        where t.state in ('queued', 'started')
          and (a.agent_version = t.build->>'version' or t.queued_at + make_interval(secs => r.wave_timeout_seconds) <= ${at})`,
  );
  const rollouts = await lockRollouts(
    s.tx,
    due.map((r) => r.id),
    true,
  );
  const outcome: SweepOutcome = { rollouts: rollouts.length, succeeded: 0, timed_out: 0 };
  for (const rollout of rollouts) {
    const succeeded = await queryRows<{ agent_id: number }>(
      s.tx,
      sql`update agent_rollout_targets t set state = 'succeeded', error = null, updated_at = ${at}
          from agents a where t.rollout_id = ${rollout.id} and t.state in ('queued', 'started') and a.id = t.agent_id
            and a.agent_version = t.build->>'version'
          returning t.agent_id`,
    );
    const error = `no update.status succeeded, failed or rolled_back within ${rollout.wave_timeout_seconds} s`;
    const timedOut = await queryRows<{ agent_id: number; version: string }>(
      s.tx,
      sql`
      with t as (
        update agent_rollout_targets t set state = 'failed', error = ${error}, updated_at = ${at}
        where t.rollout_id = ${rollout.id} and t.state in ('queued', 'started')
          and t.queued_at + make_interval(secs => ${rollout.wave_timeout_seconds}::int) <= ${at}
        returning t.agent_id, t.build->>'version' as version
      ), withdrawn as (
        update agents a set pending_update = null from t
        where a.id = t.agent_id and a.pending_update->>'version' = t.version and (a.pending_update->>'rollout_id')::int = ${rollout.id}
        returning 1
      ), ev as (
        insert into agent_events (agent_id, event_type, detail, created_at)
        select t.agent_id, 'update_timed_out', jsonb_build_object('version', t.version, 'rollout_id', ${rollout.id}::int, 'error', ${error}::text), ${at}
        from t returning 1
      )
      select agent_id, version from t`,
    );
    outcome.succeeded += succeeded.length;
    outcome.timed_out += timedOut.length;
    if (succeeded.length + timedOut.length > 0) await touchRollout(s, rollout.id);
    await stepRollout(s, rollout);
  }
  return outcome;
});
