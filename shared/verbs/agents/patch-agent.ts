// PATCH /agents/{id}: name, notes and the hardware node it runs on; only the fields given change. A new
// hardware link is recorded as a host_link_changed event (spec/catalogue.tsv, group agents).
import { eq } from "drizzle-orm";
import { agents } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { requireAgent } from "./agent-row.ts";
import { requireHardware } from "./hardware-ref.ts";
import { auditAgent, recordAgentEvent } from "./notify.ts";
import { type AgentReadShape, presentAgent } from "./present.ts";
import { WRITE_AGENTS } from "./scopes.ts";

export interface AgentPatch {
  name?: string | null | undefined;
  notes?: string | null | undefined;
  hardware_id?: number | null | undefined;
}

export const patchAgent = defineVerb<{ id: number; patch: AgentPatch }, AgentReadShape>({ scope: WRITE_AGENTS }, async (s, { id, patch }) => {
  const before = await requireAgent(s.tx, id, { forUpdate: true });
  if (patch.hardware_id != null) await requireHardware(s.tx, patch.hardware_id);
  const values = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as AgentPatch;
  // An empty name is no name: the lists then show the hostname.
  if (values.name === "") values.name = null;
  const changed = (Object.keys(values) as (keyof AgentPatch)[]).filter((k) => values[k] !== before[k]);
  if (changed.length === 0) return presentAgent(s.tx, before, s.now);

  const [after] = await s.tx.update(agents).set({ ...values, updated_at: s.now }).where(eq(agents.id, id)).returning();
  if (changed.includes("hardware_id")) await recordAgentEvent(s, id, "host_link_changed", { from: before.hardware_id, to: after!.hardware_id });
  auditAgent(s, "update", id, {
    before: Object.fromEntries(changed.map((k) => [k, before[k]])),
    after: Object.fromEntries(changed.map((k) => [k, after![k]])),
  });
  return presentAgent(s.tx, after!, s.now);
});
