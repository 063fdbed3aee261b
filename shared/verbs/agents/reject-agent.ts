// POST /agents/{id}/reject: a pending agent is refused for good (a rejected device cannot enroll again).
// Its pairing code dies; its enroll socket hears the decision and closes.
import { eq } from "drizzle-orm";
import { agents } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { requireAgent, requireStatus } from "./agent-row.ts";
import { announcePresence, auditAgent, recordAgentEvent, tellSidecar } from "./notify.ts";
import { type AgentReadShape, presentAgent } from "./present.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

export const rejectAgent = defineVerb<{ id: number }, AgentReadShape>({ scope: ADMIN_AGENTS }, async (s, { id }) => {
  const agent = await requireAgent(s.tx, id, { forUpdate: true });
  requireStatus(agent, ["pending"], "be rejected");
  const [after] = await s.tx
    .update(agents)
    .set({ status: "rejected", decided_at: s.now, pairing_code_hash: null, pairing_expires_at: null, updated_at: s.now })
    .where(eq(agents.id, id))
    .returning();
  await recordAgentEvent(s, id, "rejected");
  auditAgent(s, "reject", id, { status: { before: agent.status, after: "rejected" }, fingerprint: agent.fingerprint });
  tellSidecar(s, id, "decided");
  announcePresence(s, id, "rejected");
  return presentAgent(s.tx, after!, s.now);
});
