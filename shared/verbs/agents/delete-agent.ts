// DELETE /agents/{id}: the agent and everything recorded about it (events, probe runs and its latest
// frame go by foreign key; its samples and hourly rollups, which have no foreign key, are deleted here, and
// it leaves the vantage points of the monitors that named it, docs/adr/0441).
// Refused (409) while probe runs are still owed an answer. A live link is cut (agent_control "revoked").
import { eq, type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { agentHostSamples, agentHostSamplesHourly, agents } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { defineVerb } from "../verb.ts";
import { requireAgent } from "./agent-row.ts";
import { announcePresence, auditAgent, tellSidecar } from "./notify.ts";
import { openRunCount } from "./probe-runs.ts";
import { DELETE_AGENTS } from "./scopes.ts";
import { dropVantageAgent } from "../monitors/vantage-fields.ts";

/** Runs a DELETE and answers how many rows it removed (the same on postgres.js and PGlite). */
async function deletedCount(db: Db, statement: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`);
  return row?.n ?? 0;
}

export const deleteAgent = defineVerb<{ id: number }, void>({ scope: DELETE_AGENTS }, async (s, { id }) => {
  const agent = await requireAgent(s.tx, id, { forUpdate: true });
  const open = await openRunCount(s.tx, id);
  if (open > 0)
    throw ApiError.conflict(
      `${open} probe run(s) are still queued or in flight for agent ${id}; wait for them to finish, or revoke the agent first (a revoke cancels them).`,
      { open_probe_runs: open },
    );
  const samples = await deletedCount(s.tx, sql`delete from ${agentHostSamples} where ${agentHostSamples.agent_id} = ${id}`);
  const hourly = await deletedCount(s.tx, sql`delete from ${agentHostSamplesHourly} where ${agentHostSamplesHourly.agent_id} = ${id}`);
  await s.tx.delete(agents).where(eq(agents.id, id));
  const monitors = await dropVantageAgent(s.tx, id);
  const { pairing_code_hash: _code, ...kept } = agent;
  auditAgent(s, "delete", id, {
    before: kept,
    samples_deleted: samples,
    hourly_rows_deleted: hourly,
    ...(monitors.length ? { vantage_of_monitors: monitors } : {}),
  });
  tellSidecar(s, id, "revoked");
  // A pending agent waits on its enroll socket, which listens for decisions.
  if (agent.status === "pending") tellSidecar(s, id, "decided");
  announcePresence(s, id, "revoked", { deleted: true });
});
