// The checks create and PATCH apply to a multi-vantage monitor's fields (docs/adr/0441), each a 422 naming
// its field before anything is written:
// - vantage_agent_ids and probe_agent_id exclude each other (probe_agent_id is the one-agent, no-sidecar
//   case and keeps its own path);
// - each vantage agent exists, is neither rejected nor revoked, has its remote_probe grant enabled, and the
//   check type is one agents run (its registry entry lists the `agent` runner);
// - quorum only with vantage agents, and at most the number of vantage points.
// Whether an agent is online or ready is judged at each dispatch, as for probe_agent_id: an agent that
// cannot take a run then has no fresh result, so its point does not count.
import { inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { agents } from "../../db/schema/index.ts";
import { effectiveGrants } from "../../domain/agents/capabilities.ts";
import { CHECK_TYPE_REGISTRY, type CheckType, sourceOf } from "../../domain/monitors/check-types.ts";
import { type VantageConfig, vantagePoints } from "../../domain/monitors/quorum.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";

export interface VantageFields extends VantageConfig {
  probe_agent_id: number | null;
}

export const NO_VANTAGE = { vantage_agent_ids: [], vantage_sidecar: true, quorum: null } as const;

const issue = (loc: (string | number)[], msg: string, type = "invalid"): ValidationIssue => ({ loc: ["body", ...loc], msg, type });

/** `checkAgents`: whether to check the agents themselves (only when the list changes, so a later revocation does not block a rename). */
export async function checkVantage(db: Db, checkType: CheckType, f: VantageFields, checkAgents: boolean): Promise<void> {
  const issues: ValidationIssue[] = [];
  const ids = f.vantage_agent_ids;
  if (ids.length > 0 && f.probe_agent_id != null)
    issues.push(issue(["vantage_agent_ids"], "Give either probe_agent_id (one agent, no sidecar) or vantage_agent_ids, not both."));
  if (ids.length > 0 && checkAgents) {
    const runsOnAgents = sourceOf(checkType) === "probe" && CHECK_TYPE_REGISTRY[checkType].runners.includes("agent");
    if (!runsOnAgents) issues.push(issue(["vantage_agent_ids"], `A ${checkType} check does not run on agents.`));
    else {
      const found = await db
        .select({ id: agents.id, status: agents.status, capabilities: agents.capabilities })
        .from(agents)
        .where(inArray(agents.id, [...ids]));
      const byId = new Map(found.map((a) => [a.id, a]));
      ids.forEach((id, i) => {
        const a = byId.get(id);
        if (!a) issues.push(issue(["vantage_agent_ids", i], `There is no agent ${id}.`, "not_found"));
        else if (a.status === "rejected" || a.status === "revoked")
          issues.push(issue(["vantage_agent_ids", i], `Agent ${id} is ${a.status}.`));
        else if (!effectiveGrants(a.capabilities).remote_probe.enabled)
          issues.push(issue(["vantage_agent_ids", i], `Agent ${id} may not probe: its remote_probe capability is disabled.`));
      });
    }
  }
  if (f.quorum != null) {
    const points = vantagePoints(f).length;
    if (ids.length === 0) issues.push(issue(["quorum"], "A quorum needs vantage_agent_ids.", "invalid"));
    else if (f.quorum > points)
      issues.push(
        issue(["quorum"], `Must be at most ${points}: the monitor has ${points} vantage point${points === 1 ? "" : "s"}.`, "value_error"),
      );
  }
  if (issues.length > 0) throw ApiError.validation(issues);
}

/**
 * A deleted agent leaves the vantage points of the monitors that named it (the list is an array, so no
 * foreign key does it): its point's row goes, and a stored quorum is lowered to the points left (null
 * once no agent is left: a single-point monitor again). Answers the monitors changed.
 */
export async function dropVantageAgent(tx: Db, agentId: number): Promise<number[]> {
  const changed = await queryRows<{ id: number }>(
    tx,
    sql`
    update monitors m set
      vantage_agent_ids = array_remove(m.vantage_agent_ids, ${agentId}),
      quorum = case
        when m.quorum is null or cardinality(array_remove(m.vantage_agent_ids, ${agentId})) = 0 then null
        else least(m.quorum, cardinality(array_remove(m.vantage_agent_ids, ${agentId})) + case when m.vantage_sidecar then 1 else 0 end) end
    where ${agentId} = any(m.vantage_agent_ids)
    returning m.id`,
  );
  await tx.execute(sql`delete from monitor_vantage_results where vantage = ${String(agentId)}`);
  return changed.map((r) => r.id);
}
