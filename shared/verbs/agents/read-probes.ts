// GET /agents/probe-eligible and GET /agents/{id}/probes. Monitors are not built yet: a monitor_id names
// nothing (404), assigned_monitors is 0 and `assignments` is empty until monitors assign agents; the
// runs an agent was asked for are listed under recent_runs meanwhile (docs/adr/0071-probes-before-monitors.md).
import { desc, eq } from "drizzle-orm";
import { agentProbeRuns, agents } from "../../db/schema/index.ts";
import { effectiveGrants } from "../../domain/agents/capabilities.ts";
import { ApiError } from "../../errors.ts";
import type { CheckType } from "../../domain/monitors/check-types.ts";
import type { AgentProbes } from "../../schemas/agents.ts";
import type * as v from "valibot";
import { iso } from "../resources/present.ts";
import { defineRead } from "../verb.ts";
import { requireAgent } from "./agent-row.ts";
import { evaluateProbeAgent, maxConcurrentOf, type ProbeEvaluation } from "./probe-eligibility.ts";
import { openRunCount, openRunCounts } from "./probe-runs.ts";
import { READ_AGENTS } from "./scopes.ts";

const RECENT_RUNS = 20;

export interface ProbeEligibleInput {
  monitor_id?: number | undefined;
  host?: string | undefined;
  check_type?: CheckType | undefined;
}

export const probeEligibleAgents = defineRead<ProbeEligibleInput, (ProbeEvaluation & { assigned_monitors: number })[]>(
  { scope: READ_AGENTS },
  async (ctx, input) => {
    if (input.monitor_id !== undefined) throw ApiError.notFound("Monitor", input.monitor_id);
    const target = { host: input.host!, check_type: input.check_type! };
    const active = await ctx.db.select().from(agents).where(eq(agents.status, "active")).orderBy(agents.id);
    const runs = await openRunCounts(
      ctx.db,
      active.map((a) => a.id),
    );
    const now = ctx.clock.now();
    return active.map((a) => ({ ...evaluateProbeAgent(a, target, runs.get(a.id) ?? 0, now), assigned_monitors: 0 }));
  },
);

export const agentProbes = defineRead<{ id: number }, v.InferInput<typeof AgentProbes>>({ scope: READ_AGENTS }, async (ctx, { id }) => {
  const agent = await requireAgent(ctx.db, id);
  const [active, recent] = await Promise.all([
    openRunCount(ctx.db, id),
    ctx.db
      .select()
      .from(agentProbeRuns)
      .where(eq(agentProbeRuns.agent_id, id))
      .orderBy(desc(agentProbeRuns.created_at), desc(agentProbeRuns.run_id))
      .limit(RECENT_RUNS),
  ]);
  return {
    agent_id: id,
    max_concurrent: maxConcurrentOf(effectiveGrants(agent.capabilities).remote_probe),
    active_runs: active,
    assignments: [],
    recent_runs: recent.map((r) => ({
      run_id: r.run_id,
      monitor_id: r.monitor_id,
      check_type: r.check_type,
      host: r.host,
      state: r.state,
      scheduled_at: iso(r.scheduled_at)!,
      deadline_at: iso(r.deadline_at)!,
      dispatched_at: iso(r.dispatched_at),
      finished_at: iso(r.finished_at),
      up: r.up,
      late: r.late,
      msg: r.msg,
    })),
  };
});
