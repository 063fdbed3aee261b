// Agent eligibility for discovery (contracts D): agentEligibility answers one agent for a job (B's scan
// and profile verbs call it), eligibleAgents the GET /discovery/eligible-agents list of every active agent.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { agents, discoveryProfiles, scanJobs } from "../../../db/schema/index.ts";
import { parseTarget, type TargetSet } from "../../../domain/discovery/targets.ts";
import { findAgent } from "../../agents/agent-row.ts";
import { type DiscoveryRefusalReason, type EligibleDiscoveryAgent, evaluateDiscoveryAgent, refusalMessage } from "./evaluate.ts";

export type { EligibleDiscoveryAgent };

export type AgentEligibility =
  | { eligible: true }
  | { eligible: false; reason: DiscoveryRefusalReason; detail: string | null; message: string };

async function countsOf(db: Db, ids: number[]): Promise<Map<number, { active_jobs: number; assigned_profiles: number }>> {
  const out = new Map(ids.map((id) => [id, { active_jobs: 0, assigned_profiles: 0 }]));
  if (ids.length === 0) return out;
  const jobs = await db
    .select({ id: scanJobs.scan_agent_id, n: sql<number>`count(*)::int` })
    .from(scanJobs)
    .where(and(inArray(scanJobs.scan_agent_id, ids), inArray(scanJobs.status, ["queued", "running"])))
    .groupBy(scanJobs.scan_agent_id);
  const profiles = await db
    .select({ id: discoveryProfiles.scan_agent_id, n: sql<number>`count(*)::int` })
    .from(discoveryProfiles)
    .where(inArray(discoveryProfiles.scan_agent_id, ids))
    .groupBy(discoveryProfiles.scan_agent_id);
  for (const j of jobs) if (j.id !== null) out.get(j.id)!.active_jobs = j.n;
  for (const p of profiles) if (p.id !== null) out.get(p.id)!.assigned_profiles = p.n;
  return out;
}

/**
 * Whether `agentId` may run a scan of `targets` (null: none named yet). An offline agent is eligible
 * unless `requireOnline`: its job is queued and waits for the link (error_reason waiting_for_agent).
 */
export async function agentEligibility(
  db: Db,
  agentId: number,
  targets: TargetSet | null,
  opts: { requireOnline?: boolean; now?: Date } = {},
): Promise<AgentEligibility> {
  const agent = await findAgent(db, agentId);
  if (!agent) return { eligible: false, reason: "agent_missing", detail: null, message: refusalMessage("agent_missing", null) };
  const counts = (await countsOf(db, [agentId])).get(agentId)!;
  const e = evaluateDiscoveryAgent(
    agent,
    { targets: targets?.targets ?? null, count: targets?.count ?? null, requireOnline: opts.requireOnline ?? false },
    counts,
    opts.now ?? new Date(),
  );
  return e.reason === null
    ? { eligible: true }
    : { eligible: false, reason: e.reason, detail: e.detail, message: refusalMessage(e.reason, e.detail) };
}

/** Every active agent, evaluated for `cidr` when one is given (in_scope null otherwise). */
export async function eligibleAgents(db: Db, cidr: string | null, now: Date = new Date()): Promise<EligibleDiscoveryAgent[]> {
  const rows = await db.select().from(agents).where(eq(agents.status, "active")).orderBy(agents.id);
  const counts = await countsOf(
    db,
    rows.map((r) => r.id),
  );
  let count: number | null = null;
  if (cidr) {
    const r = parseTarget(cidr, true);
    count = typeof r === "string" ? null : r.last - r.first + 1;
  }
  return rows.map((a) => evaluateDiscoveryAgent(a, { targets: cidr ? [cidr] : null, count, requireOnline: true }, counts.get(a.id)!, now));
}
