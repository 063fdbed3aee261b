// The read and pause verbs of agents' discovery. The per-agent pause is the local_discovery grant's
// `auto_discovery_paused` (the capability registry's own key, so it travels with capabilities.set): while
// set, the agent's queued jobs stay queued (reason paused) and new ones are refused as not eligible.
import { desc, eq } from "drizzle-orm";
import { agents, scanJobs } from "../../../db/schema/index.ts";
import { effectiveGrants } from "../../../domain/agents/capabilities.ts";
import { parseTarget } from "../../../domain/discovery/targets.ts";
import { ApiError } from "../../../errors.ts";
import type { AgentDiscoveryOut } from "../../../schemas/discovery-agents.ts";
import { requireAgent } from "../../agents/agent-row.ts";
import { auditAgent, recordAgentEvent, tellSidecar } from "../../agents/notify.ts";
import type { Db } from "../../../db/database.ts";
import { defineRead, defineVerb } from "../../verb.ts";
import { presentJob } from "../jobs/present-job.ts";
import { discoveryPaused } from "../run/pause-state.ts";
import { READ_DISCOVERY, WRITE_DISCOVERY } from "../scopes.ts";
import { eligibleAgents, type EligibleDiscoveryAgent } from "./eligibility.ts";
import { evaluateDiscoveryAgent } from "./evaluate.ts";

export const listEligibleAgents = defineRead<{ cidr?: string | undefined }, EligibleDiscoveryAgent[]>(
  { scope: READ_DISCOVERY },
  async (ctx, { cidr }) => {
    if (cidr !== undefined && cidr !== "" && typeof parseTarget(cidr, true) === "string")
      throw ApiError.validation([{ loc: ["query", "cidr"], msg: String(parseTarget(cidr, true)), type: "value_error" }]);
    return eligibleAgents(ctx.db, cidr ? cidr : null, ctx.clock.now());
  },
);

async function agentDiscoveryOf(db: Db, id: number, now: Date): Promise<AgentDiscoveryOut> {
  const all = await eligibleAgents(db, null, now);
  // eligibleAgents lists active agents only; any other is answered with its own evaluation below.
  let entry = all.find((a) => a.agent_id === id);
  entry ??= evaluateDiscoveryAgent(
    await requireAgent(db, id),
    { targets: null, count: null, requireOnline: true },
    { active_jobs: 0, assigned_profiles: 0 },
    now,
  );
  const jobs = await db.select().from(scanJobs).where(eq(scanJobs.scan_agent_id, id)).orderBy(desc(scanJobs.id)).limit(10);
  return { ...entry, paused_globally: await discoveryPaused(db), recent_jobs: jobs.map(presentJob) };
}

export const readAgentDiscovery = defineRead<{ id: number }, AgentDiscoveryOut>({ scope: READ_DISCOVERY }, async (ctx, { id }) =>
  agentDiscoveryOf(ctx.db, id, ctx.clock.now()),
);

export const setAgentDiscoveryPaused = defineVerb<{ id: number; paused: boolean }, AgentDiscoveryOut>(
  { scope: WRITE_DISCOVERY },
  async (s, { id, paused }) => {
    const agent = await requireAgent(s.tx, id, { forUpdate: true });
    const grants = effectiveGrants(agent.capabilities);
    const was = grants.local_discovery.config.auto_discovery_paused === true;
    if (was !== paused) {
      const stored = { ...agent.capabilities };
      const current = stored.local_discovery ?? { enabled: grants.local_discovery.enabled, config: {} };
      stored.local_discovery = { enabled: current.enabled, config: { ...current.config, auto_discovery_paused: paused } };
      await s.tx.update(agents).set({ capabilities: stored }).where(eq(agents.id, id));
      auditAgent(s, paused ? "discovery_paused" : "discovery_resumed", id, {
        before: { auto_discovery_paused: was },
        after: { auto_discovery_paused: paused },
      });
      await recordAgentEvent(s, id, paused ? "discovery_paused" : "discovery_resumed");
      tellSidecar(s, id, "capabilities");
      if (!paused) s.emit("discovery_control", { type: "agent_resumed", agent_id: id });
    }
    return agentDiscoveryOf(s.tx, id, s.now);
  },
);
