// What the runner records about an agent-probed monitor's dispatch: queued (requestProbe accepted it)
// or unavailable with the agent's refusal reason (spec/catalogue.tsv, group agents: agent_offline, ...). The
// result itself arrives later through the agent link batch.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_MONITORS } from "../scopes.ts";

export const markProbeDispatch = defineVerb<{ monitor_id: number; status: "queued" | "unavailable"; reason: string | null }, void>(
  { scope: WRITE_MONITORS },
  async (s, { monitor_id, status, reason }) => {
    const at = s.now.toISOString();
    await s.tx.execute(sql`
      update monitors set probe_execution_status = ${status}, probe_execution_reason = ${reason},
        probe_last_dispatched_at = case when ${status} = 'queued' then ${at}::timestamptz else probe_last_dispatched_at end,
        claimed_by = null, claimed_at = null
      where id = ${monitor_id}`);
  },
);

/**
 * A multi-vantage monitor's dispatch to one of its agents (docs/adr/0441), kept on that point's row: a
 * refusal (the agent is offline, at capacity) leaves the point without a fresh result, so it does not
 * count, and the console shows why. `release`: no sidecar check of this round will clear the claim.
 */
export const markVantageDispatch = defineVerb<
  { monitor_id: number; agent_id: number; status: "queued" | "unavailable"; reason: string | null; release: boolean },
  void
>({ scope: WRITE_MONITORS }, async (s, { monitor_id, agent_id, status, reason, release }) => {
  const at = s.now.toISOString();
  await s.tx.execute(sql`
    insert into monitor_vantage_results (monitor_id, vantage, dispatch_status, dispatch_reason, dispatched_at)
    select id, ${String(agent_id)}, ${status}, ${reason}, ${at}::timestamptz from monitors where id = ${monitor_id}
    on conflict (monitor_id, vantage) do update set
      dispatch_status = excluded.dispatch_status, dispatch_reason = excluded.dispatch_reason, dispatched_at = excluded.dispatched_at`);
  if (release) await s.tx.execute(sql`update monitors set claimed_by = null, claimed_at = null where id = ${monitor_id}`);
});

/**
 * Agent-probed monitors whose latest run expired unanswered (the agent went away mid-run) become `stale`:
 * the target's state is unknown, so the monitor's status is left as it was, and no result is invented.
 */
export const markStaleProbes = defineVerb<undefined, { stale: number }>({ scope: WRITE_MONITORS }, async (s) => {
  const rows = await queryRows<{ id: number }>(
    s.tx,
    sql`
    update monitors m set probe_execution_status = 'stale', probe_execution_reason = 'the agent did not answer before the deadline'
    where m.probe_agent_id is not null and m.probe_execution_status = 'queued'
      and (select p.state from agent_probe_runs p where p.monitor_id = m.id order by p.created_at desc limit 1) = 'expired'
    returning m.id`,
  );
  return { stale: rows.length };
});
