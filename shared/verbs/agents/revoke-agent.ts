// POST /agents/{id}/revoke {reason}: an active or pending agent loses its standing for good. Its open
// probe runs are cancelled in the same transaction, its link is cut (agent_control "revoked") and the UI
// sees presence "revoked". The reason (3+ non-blank characters, checked by the body schema) is kept.
import { eq } from "drizzle-orm";
import { agentProbeRuns, agents } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { requireAgent, requireStatus } from "./agent-row.ts";
import { announcePresence, auditAgent, recordAgentEvent, tellSidecar } from "./notify.ts";
import { type AgentReadShape, presentAgent } from "./present.ts";
import { openRunsOf } from "./probe-runs.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

export const revokeAgent = defineVerb<{ id: number; reason: string }, AgentReadShape>(
  { scope: ADMIN_AGENTS },
  async (s, { id, reason }) => {
    const agent = await requireAgent(s.tx, id, { forUpdate: true });
    requireStatus(agent, ["active", "pending"], "be revoked");
    const cancelled = await s.tx
      .update(agentProbeRuns)
      .set({ state: "cancelled", finished_at: s.now, msg: "cancelled: the agent was revoked" })
      .where(openRunsOf(id))
      .returning({ run_id: agentProbeRuns.run_id });
    const [after] = await s.tx
      .update(agents)
      .set({
        status: "revoked",
        revoke_reason: reason,
        decided_at: s.now,
        pairing_code_hash: null,
        pairing_expires_at: null,
        pending_update: null,
        updated_at: s.now,
      })
      .where(eq(agents.id, id))
      .returning();
    await recordAgentEvent(s, id, "revoked", { reason, cancelled_runs: cancelled.length });
    auditAgent(s, "revoke", id, {
      status: { before: agent.status, after: "revoked" },
      reason,
      cancelled_runs: cancelled.map((r) => r.run_id),
    });
    tellSidecar(s, id, "revoked");
    // A pending agent waits on its enroll socket, which listens for decisions.
    if (agent.status === "pending") tellSidecar(s, id, "decided");
    announcePresence(s, id, "revoked", { reason });
    return presentAgent(s.tx, after!, s.now);
  },
);
