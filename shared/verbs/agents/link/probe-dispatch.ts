// The probe outbox as the link drains it (shared/db/schema/agents.ts agent_probe_runs): queued runs of a
// linked agent become `dispatched` when their probe.assign goes out, and runs whose deadline passed
// without an answer become `expired` (a result that still arrives is kept, marked late: link-batch.ts).
import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import { agentProbeRuns } from "../../../db/schema/index.ts";
import { defineRead, defineVerb } from "../../verb.ts";
import { ADMIN_AGENTS } from "../scopes.ts";

/** The probe.assign payload of one run (spec/catalogue.tsv, group agents). */
export interface ProbeAssignment {
  run_id: string;
  monitor_id: number | null;
  check_type: string;
  host: string;
  config: Record<string, unknown>;
  scheduled_at: string;
  deadline_at: string;
}

/** At most this many runs go out per call; the sidecar calls again while it gets a full page. */
export const DISPATCH_PAGE = 100;

/**
 * Marks the agent's queued runs dispatched and answers them for probe.assign. Runs already past their
 * deadline are not sent (expireProbeRuns settles them). SKIP LOCKED: two notices for one agent (or two
 * sidecars during a hand-over) never send one run twice.
 */
export const dispatchQueuedProbes = defineVerb<{ agent_id: number }, ProbeAssignment[]>(
  { scope: ADMIN_AGENTS },
  async (s, { agent_id }) => {
    const queued = await s.tx
      .select()
      .from(agentProbeRuns)
      .where(and(eq(agentProbeRuns.agent_id, agent_id), eq(agentProbeRuns.state, "queued"), gt(agentProbeRuns.deadline_at, s.now)))
      .orderBy(asc(agentProbeRuns.scheduled_at))
      .limit(DISPATCH_PAGE)
      .for("update", { skipLocked: true });
    if (queued.length === 0) return [];
    await s.tx
      .update(agentProbeRuns)
      .set({ state: "dispatched", dispatched_at: s.now })
      .where(
        inArray(
          agentProbeRuns.run_id,
          queued.map((r) => r.run_id),
        ),
      );
    return queued.map((r) => ({
      run_id: r.run_id,
      monitor_id: r.monitor_id,
      check_type: r.check_type,
      host: r.host,
      config: r.config,
      scheduled_at: r.scheduled_at.toISOString(),
      deadline_at: r.deadline_at.toISOString(),
    }));
  },
);

/** Open runs past their deadline become `expired`; answers how many. Any sidecar may run it. */
export const expireProbeRuns = defineVerb<undefined, { expired: number }>({ scope: ADMIN_AGENTS }, async (s) => {
  const rows = await s.tx
    .update(agentProbeRuns)
    .set({ state: "expired", finished_at: s.now, msg: "expired: no result before the deadline" })
    .where(and(inArray(agentProbeRuns.state, ["queued", "dispatched"]), lte(agentProbeRuns.deadline_at, s.now)))
    .returning({ run_id: agentProbeRuns.run_id });
  return { expired: rows.length };
});

/**
 * Of the runs a link sent out and has not heard back from, those cancelled since (monitor paused,
 * reassigned or deleted): the sidecar tells the agent with probe.cancel {run_id, reason}.
 */
export const cancelledProbeRuns = defineRead<{ run_ids: string[] }, { run_id: string; reason: string }[]>(
  { scope: ADMIN_AGENTS },
  async (ctx, { run_ids }) => {
    if (run_ids.length === 0) return [];
    const rows = await ctx.db
      .select({ run_id: agentProbeRuns.run_id, details: agentProbeRuns.details })
      .from(agentProbeRuns)
      .where(and(inArray(agentProbeRuns.run_id, run_ids), eq(agentProbeRuns.state, "cancelled")));
    return rows.map((r) => ({ run_id: r.run_id, reason: typeof r.details?.error_code === "string" ? r.details.error_code : "cancelled" }));
  },
);
