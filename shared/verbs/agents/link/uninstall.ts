// The agent's own `uninstall` frame (spec/catalogue.tsv, group agents): the device revokes itself, exactly as an
// administrator's revoke would (open probe runs cancelled, presence "revoked"), with the agent as the
// one who asked. The sidecar then closes the link 1000.
import { and, eq } from "drizzle-orm";
import { agentProbeRuns, agents } from "../../../db/schema/index.ts";
import { defineVerb } from "../../verb.ts";
import { openRunsOf } from "../probe-runs.ts";
import { announcePresence, auditAgent, recordAgentEvent } from "../notify.ts";
import { ADMIN_AGENTS } from "../scopes.ts";

export const UNINSTALL_REASON = "uninstalled by the agent";

export const uninstallAgent = defineVerb<{ agent_id: number; reason: string | null }, { revoked: boolean }>(
  { scope: ADMIN_AGENTS },
  async (s, { agent_id, reason }) => {
    const [row] = await s.tx
      .update(agents)
      .set({
        status: "revoked",
        revoke_reason: UNINSTALL_REASON,
        decided_at: s.now,
        pending_update: null,
        link_owner: null,
        connected_since: null,
        updated_at: s.now,
      })
      .where(and(eq(agents.id, agent_id), eq(agents.status, "active")))
      .returning({ id: agents.id });
    if (!row) return { revoked: false };
    const cancelled = await s.tx
      .update(agentProbeRuns)
      .set({ state: "cancelled", finished_at: s.now, msg: "cancelled: the agent was uninstalled" })
      .where(openRunsOf(agent_id))
      .returning({ run_id: agentProbeRuns.run_id });
    const detail = { reason: UNINSTALL_REASON, agent_reason: reason, by: "agent", cancelled_runs: cancelled.length };
    await recordAgentEvent(s, agent_id, "revoked", detail);
    auditAgent(s, "uninstall", agent_id, { status: { before: "active", after: "revoked" }, ...detail });
    announcePresence(s, agent_id, "revoked", { reason: UNINSTALL_REASON });
    return { revoked: true };
  },
);
