// POST /agents/{id}/approve (spec/catalogue.tsv, group agents): a pending agent becomes active with the registry's
// grants (overridden by `capabilities`), linked to a hardware node as `host_link_action` says: accept the
// proposal, select `hardware_id`, create a node from what the agent reported, or leave it unlinked. The
// pairing code dies with the decision; the enroll socket hears it (agent_control "decided") and the UI
// sees presence "approved".
import { eq } from "drizzle-orm";
import { agents, hardware } from "../../db/schema/index.ts";
import { effectiveGrants } from "../../domain/agents/capabilities.ts";
import { ApiError } from "../../errors.ts";
import type { HOST_LINK_ACTIONS } from "../../schemas/agents.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { type AgentRow, requireAgent, requireStatus } from "./agent-row.ts";
import { grantsAfter } from "./grant-changes.ts";
import { requireHardware } from "./hardware-ref.ts";
import { announcePresence, auditAgent, recordAgentEvent, tellSidecar } from "./notify.ts";
import { type AgentReadShape, presentAgent } from "./present.ts";
import { proposedHardware } from "./propose-hardware.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

type LinkAction = (typeof HOST_LINK_ACTIONS)[number];

export interface ApproveInput {
  id: number;
  hardware_id?: number | null | undefined;
  host_link_action?: LinkAction | undefined;
  capabilities?: Record<string, unknown> | undefined;
}

const refuse = (field: string, msg: string) => ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);

/** A node named after the agent's host, with the address and first MAC it reported. */
async function createHardwareFor(s: VerbScope, agent: AgentRow): Promise<number> {
  const [node] = await s.tx
    .insert(hardware)
    .values({
      name: agent.hostname || agent.name || `agent-${agent.id}`,
      ip_address: agent.reported_ip,
      mac_address: agent.primary_macs?.[0] ?? null,
      notes: `Created on approving agent ${agent.id} (${agent.fingerprint}).`,
    })
    .returning();
  s.audit({
    action: "hardware.create",
    category: "inventory",
    entity_type: "hardware",
    entity_id: node!.id,
    diff: { after: node, by_agent: agent.id },
  });
  for (const channel of ["inventory", "topology"] as const) s.emit(channel, { entity: "hardware", action: "create", id: node!.id });
  return node!.id;
}

async function linkFor(s: VerbScope, agent: AgentRow, action: LinkAction, given: number | null): Promise<number | null> {
  switch (action) {
    case "accept": {
      const proposal = (await proposedHardware(s.tx, [agent])).get(agent.id);
      if (proposal === undefined)
        throw refuse("host_link_action", "Nothing is proposed for this agent: choose select, create or unlinked.");
      if (given !== null && given !== proposal)
        throw refuse("hardware_id", `accept links the proposed hardware node ${proposal}; use select to link another.`);
      return proposal;
    }
    case "select":
      if (given === null) throw refuse("hardware_id", "select needs the hardware_id to link.");
      await requireHardware(s.tx, given);
      return given;
    case "create":
    case "unlinked":
      if (given !== null) throw refuse("hardware_id", `hardware_id goes with select or accept, not ${action}.`);
      return action === "create" ? createHardwareFor(s, agent) : null;
  }
}

export const approveAgent = defineVerb<ApproveInput, AgentReadShape>({ scope: ADMIN_AGENTS }, async (s, input) => {
  const agent = await requireAgent(s.tx, input.id, { forUpdate: true });
  requireStatus(agent, ["pending"], "be approved");
  const grants = grantsAfter(agent.capabilities, input.capabilities ?? {});
  // Without an action: a given hardware_id is a selection, otherwise nothing is linked.
  const action = input.host_link_action ?? (input.hardware_id != null ? "select" : "unlinked");
  const hardwareId = await linkFor(s, agent, action, input.hardware_id ?? null);
  const [after] = await s.tx
    .update(agents)
    .set({
      status: "active",
      approved_at: s.now,
      decided_at: s.now,
      pairing_code_hash: null,
      pairing_expires_at: null,
      hardware_id: hardwareId,
      capabilities: grants,
      updated_at: s.now,
    })
    .where(eq(agents.id, agent.id))
    .returning();
  const detail = { host_link_action: action, hardware_id: hardwareId };
  await recordAgentEvent(s, agent.id, "approved", detail);
  auditAgent(s, "approve", agent.id, {
    status: { before: agent.status, after: "active" },
    ...detail,
    capabilities: { before: effectiveGrants(agent.capabilities), after: grants },
  });
  tellSidecar(s, agent.id, "decided");
  announcePresence(s, agent.id, "approved", { hardware_id: hardwareId });
  return presentAgent(s.tx, after!, s.now);
});
