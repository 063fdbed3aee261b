// PUT /agents/{id}/capabilities {capabilities}: only the names given change (a bare boolean or
// {enabled, config}, config merged over what is stored). The sidecar sends the agent the whole new set
// (capabilities.set). A rejected or revoked agent has no grants left to change.
import { eq } from "drizzle-orm";
import { agents } from "../../db/schema/index.ts";
import { effectiveGrants } from "../../domain/agents/capabilities.ts";
import { defineVerb } from "../verb.ts";
import { requireAgent, requireStatus } from "./agent-row.ts";
import { changedGrants, grantsAfter } from "./grant-changes.ts";
import { auditAgent, recordAgentEvent, tellSidecar } from "./notify.ts";
import { type AgentReadShape, presentAgent } from "./present.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

export const setAgentCapabilities = defineVerb<{ id: number; capabilities: Record<string, unknown> }, AgentReadShape>(
  { scope: ADMIN_AGENTS },
  async (s, { id, capabilities }) => {
    const agent = await requireAgent(s.tx, id, { forUpdate: true });
    const before = effectiveGrants(agent.capabilities);
    const after = grantsAfter(agent.capabilities, capabilities);
    requireStatus(agent, ["active", "pending"], "have its capabilities changed");
    const changed = changedGrants(before, after);
    if (changed.length === 0) return presentAgent(s.tx, agent, s.now);
    const [row] = await s.tx.update(agents).set({ capabilities: after, updated_at: s.now }).where(eq(agents.id, id)).returning();
    const diff = {
      before: Object.fromEntries(changed.map((n) => [n, before[n]])),
      after: Object.fromEntries(changed.map((n) => [n, after[n]])),
    };
    await recordAgentEvent(s, id, "capability_changed", { capabilities: changed, ...diff });
    auditAgent(s, "capabilities", id, diff);
    tellSidecar(s, id, "capabilities");
    return presentAgent(s.tx, row!, s.now);
  },
);
