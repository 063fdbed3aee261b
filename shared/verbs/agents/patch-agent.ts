// PATCH /agents/{id}: name, notes and the hardware node it runs on; only the fields given change, written
// by the resource engine's row steps (resources/update-row.ts: nothing written when nothing changes, the
// audit entry agents.update with the before/after diff). A new hardware link is recorded as a
// host_link_changed event (spec/catalogue.tsv, group agents).
import { updateRow } from "../resources/update-row.ts";
import { defineVerb } from "../verb.ts";
import { agentKind } from "./agent-row.ts";
import { requireHardware } from "./hardware-ref.ts";
import { recordAgentEvent } from "./notify.ts";
import { type AgentReadShape, presentAgent } from "./present.ts";
import { WRITE_AGENTS } from "./scopes.ts";

export interface AgentPatch {
  name?: string | null | undefined;
  notes?: string | null | undefined;
  hardware_id?: number | null | undefined;
}

export const patchAgent = defineVerb<{ id: number; patch: AgentPatch }, AgentReadShape>(
  { scope: WRITE_AGENTS },
  async (s, { id, patch }) => {
    const after = await updateRow(
      s,
      agentKind,
      { id },
      {
        skipUnchanged: true,
        async values() {
          if (patch.hardware_id != null) await requireHardware(s.tx, patch.hardware_id);
          const values = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as AgentPatch;
          // An empty name is no name: the lists then show the hostname.
          if (values.name === "") values.name = null;
          return values;
        },
        async after(before, row) {
          if (row.hardware_id !== before.hardware_id)
            await recordAgentEvent(s, id, "host_link_changed", { from: before.hardware_id, to: row.hardware_id });
        },
      },
    );
    return presentAgent(s.tx, after, s.now);
  },
);
