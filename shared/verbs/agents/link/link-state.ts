// What a live link re-reads when agent_control says something changed (shared/agents/control.ts): the
// agent's standing, its grants and any queued update. The notice names only the agent; the rows are
// the truth, so a late or repeated notice does no harm.
import { inArray } from "drizzle-orm";
import { agents } from "../../../db/schema/index.ts";
import { effectiveGrants, type Grants } from "../../../domain/agents/capabilities.ts";
import { defineRead } from "../../verb.ts";
import { ADMIN_AGENTS } from "../scopes.ts";

export interface LinkState {
  status: string;
  grants: Grants;
  pending_update: Record<string, unknown> | null;
}

export const readLinkStates = defineRead<{ ids: number[] }, Map<number, LinkState>>({ scope: ADMIN_AGENTS }, async (ctx, { ids }) => {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: agents.id, status: agents.status, capabilities: agents.capabilities, pending_update: agents.pending_update })
    .from(agents)
    .where(inArray(agents.id, ids));
  return new Map(rows.map((r) => [r.id, { status: r.status, grants: effectiveGrants(r.capabilities), pending_update: r.pending_update }]));
});
