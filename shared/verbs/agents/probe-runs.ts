// The probe runs of an agent still owed an answer (queued for dispatch or dispatched and unfinished),
// which capacity counts, deletes wait for and a revoke cancels.
import { and, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { agentProbeRuns } from "../../db/schema/index.ts";

export const OPEN_RUN_STATES = ["queued", "dispatched"] as const;

export const openRunsOf = (agentId: number) =>
  and(eq(agentProbeRuns.agent_id, agentId), inArray(agentProbeRuns.state, [...OPEN_RUN_STATES]));

export async function openRunCount(db: Db, agentId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(agentProbeRuns).where(openRunsOf(agentId));
  return row?.n ?? 0;
}

/** agent id -> open runs, for several agents in one query. */
export async function openRunCounts(db: Db, agentIds: number[]): Promise<Map<number, number>> {
  if (agentIds.length === 0) return new Map();
  const rows = await db
    .select({ agent_id: agentProbeRuns.agent_id, n: count() })
    .from(agentProbeRuns)
    .where(and(inArray(agentProbeRuns.agent_id, agentIds), inArray(agentProbeRuns.state, [...OPEN_RUN_STATES])))
    .groupBy(agentProbeRuns.agent_id);
  return new Map(rows.map((r) => [r.agent_id, r.n]));
}
