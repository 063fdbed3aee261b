// Moving a rollout on (docs/adr/0429, 0430). Every caller holds the rollout's row lock (lockRollouts), so
// two sidecars never advance one rollout at once, and a target goes from pending to queued exactly once:
// the `update` of a target is queued by one conditional UPDATE and never again. A step, in order:
// failures since the last resume at the threshold stop the rollout (stop_reason names them); a wave with
// a target still queued or started waits; otherwise the next wave's targets are queued (agents no longer
// active are skipped), and when no wave is left the rollout is completed.
import { eq, inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { agentRollouts } from "../../../db/schema/index.ts";
import type { TargetState } from "../../../schemas/agent-rollouts.ts";
import type { VerbScope } from "../../verb.ts";
import { tellSidecar } from "../notify.ts";

export type RolloutRow = typeof agentRollouts.$inferSelect;

/** Locks the rollouts in id order (the one order every caller takes them in). skipLocked: the sweep leaves rows another is working on. */
export async function lockRollouts(tx: Db, ids: readonly number[], skipLocked = false): Promise<RolloutRow[]> {
  if (ids.length === 0) return [];
  const query = tx
    .select()
    .from(agentRollouts)
    .where(inArray(agentRollouts.id, [...ids]))
    .orderBy(agentRollouts.id);
  return skipLocked ? query.for("update", { skipLocked: true }) : query.for("update");
}

/** Marks the rollout changed (its updated_at is the ETag), with `set` besides. */
export async function touchRollout(s: VerbScope, id: number, set: Partial<RolloutRow> = {}): Promise<void> {
  await s.tx
    .update(agentRollouts)
    .set({ ...set, updated_at: s.now })
    .where(eq(agentRollouts.id, id));
}

interface Failure {
  agent_id: number;
  hostname: string | null;
  state: TargetState;
  error: string | null;
}

async function failures(tx: Db, id: number): Promise<Failure[]> {
  return queryRows<Failure>(
    tx,
    sql`select agent_id, hostname, state, error from agent_rollout_targets
        where rollout_id = ${id} and state in ('failed', 'rolled_back') order by updated_at, agent_id`,
  );
}

/** How many targets failed or rolled back so far. */
export async function countFailures(tx: Db, id: number): Promise<number> {
  return (await failures(tx, id)).length;
}

const MAX_NAMED = 10;

export function stopReason(list: readonly Failure[], threshold: number): string {
  const named = list
    .slice(0, MAX_NAMED)
    .map((f) => `agent ${f.agent_id}${f.hostname ? ` (${f.hostname})` : ""} ${f.state}${f.error ? `: ${f.error}` : ""}`);
  const more = list.length > MAX_NAMED ? `; and ${list.length - MAX_NAMED} more` : "";
  return `${list.length} agent${list.length === 1 ? "" : "s"} failed (threshold ${threshold}): ${named.join("; ")}${more}`;
}

/** Queues the wave's pending targets on their agents (pending_update, the `update_queued` event, agent_control); skips those no longer active. */
async function queueWave(s: VerbScope, rollout: RolloutRow, wave: number): Promise<number> {
  const at = s.now.toISOString();
  const queued = await queryRows<{ agent_id: number; version: string }>(
    s.tx,
    sql`
    with q as (
      update agent_rollout_targets t set state = 'queued', queued_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
      from agents a
      where t.rollout_id = ${rollout.id} and t.wave = ${wave} and t.state = 'pending' and a.id = t.agent_id and a.status = 'active'
      returning t.agent_id, t.build
    ), upd as (
      update agents a set pending_update = q.build || jsonb_build_object('queued_at', ${at}::text, 'rollout_id', ${rollout.id}::int),
        updated_at = ${at}::timestamptz
      from q where a.id = q.agent_id
      returning a.id
    ), ev as (
      insert into agent_events (agent_id, event_type, actor_user_id, detail, created_at)
      select q.agent_id, 'update_queued', ${s.ctx.actor?.userId ?? null}::int,
        jsonb_build_object('version', q.build->>'version', 'os', q.build->>'os', 'arch', q.build->>'arch', 'rollout_id', ${rollout.id}::int, 'wave', ${wave}::int),
        ${at}::timestamptz
      from q
      returning 1
    )
    select q.agent_id, q.build->>'version' as version from q`,
  );
  await s.tx.execute(sql`
    update agent_rollout_targets t set state = 'skipped', error = 'agent is ' || coalesce(a.status, 'deleted') || ', not active, when its wave came',
      updated_at = ${at}::timestamptz
    from agents a where t.rollout_id = ${rollout.id} and t.wave = ${wave} and t.state = 'pending' and a.id = t.agent_id`);
  for (const { agent_id } of queued) tellSidecar(s, agent_id, "update");
  return queued.length;
}

function auditRollout(s: VerbScope, what: string, rollout: RolloutRow, diff: Record<string, unknown>): void {
  s.audit({ action: `agents.rollout_${what}`, category: "agents", entity_type: "agent_rollout", entity_id: rollout.id, diff });
}

export { auditRollout };

/** One step of a running rollout whose row the caller has locked; answers its state after. */
export async function stepRollout(s: VerbScope, rollout: RolloutRow): Promise<RolloutRow["state"]> {
  if (rollout.state !== "running") return rollout.state;
  let wave = rollout.current_wave;
  for (;;) {
    const failed = await failures(s.tx, rollout.id);
    if (failed.length - rollout.failures_acknowledged >= rollout.failure_threshold) {
      const stop_reason = stopReason(failed, rollout.failure_threshold);
      await touchRollout(s, rollout.id, { state: "stopped", stop_reason, current_wave: wave });
      auditRollout(s, "stopped", rollout, { stop_reason, failed: failed.map((f) => f.agent_id) });
      return "stopped";
    }
    const [live] = await queryRows<{ n: number }>(
      s.tx,
      sql`select count(*)::int as n from agent_rollout_targets where rollout_id = ${rollout.id} and wave = ${wave} and state in ('queued', 'started')`,
    );
    if (wave > 0 && live!.n > 0) {
      if (wave !== rollout.current_wave) await touchRollout(s, rollout.id, { current_wave: wave });
      return "running";
    }
    const [next] = await queryRows<{ wave: number | null }>(
      s.tx,
      sql`select min(wave) as wave from agent_rollout_targets where rollout_id = ${rollout.id} and state = 'pending' and wave > ${wave}`,
    );
    if (next?.wave == null) {
      await touchRollout(s, rollout.id, { state: "completed", current_wave: wave, finished_at: s.now });
      auditRollout(s, "completed", rollout, { version: rollout.version });
      return "completed";
    }
    wave = next.wave;
    await queueWave(s, rollout, wave);
  }
}
