// What a verb tells the rest of the system about an agent, delivered on commit (shared/agents/control.ts):
// the sidecar holding its socket (agent_control), the UI's /agents/stream (agents), and the agent's own
// event history (agent_events, written in the verb's transaction).
import { agentEvents } from "../../db/schema/index.ts";
import {
  AGENT_CONTROL_CHANNEL,
  type AgentControlAction,
  type AgentControlMessage,
  type AgentStreamEvent,
  type AgentStreamEventType,
} from "../../agents/control.ts";
import type { VerbScope } from "../verb.ts";

export function tellSidecar(s: VerbScope, agentId: number, action: AgentControlAction): void {
  const message: AgentControlMessage = { agent_id: agentId, action };
  s.emit(AGENT_CONTROL_CHANNEL, { ...message });
}

export function announcePresence(
  s: VerbScope,
  agentId: number,
  eventType: AgentStreamEventType,
  detail: Record<string, unknown> | null = null,
): void {
  const event: AgentStreamEvent = { agent_id: agentId, event_type: eventType, detail };
  s.emit("agents", { ...event });
}

export async function recordAgentEvent(
  s: VerbScope,
  agentId: number,
  eventType: string,
  detail: Record<string, unknown> | null = null,
): Promise<void> {
  await s.tx
    .insert(agentEvents)
    .values({ agent_id: agentId, event_type: eventType, actor_user_id: s.ctx.actor?.userId ?? null, detail, created_at: s.now });
}

/** The audit entry of an agent verb: action `agents.<what>`, category agents. */
export function auditAgent(s: VerbScope, what: string, agentId: number, diff: Record<string, unknown>): void {
  s.audit({ action: `agents.${what}`, category: "agents", entity_type: "agent", entity_id: agentId, diff });
}
