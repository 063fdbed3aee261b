// agent_control notices (shared/agents/control.ts), acted on only for the sockets this sidecar holds:
// every sidecar LISTENs, the one holding the agent's socket re-reads the rows and sends the frames.
// The same decision logic serves the enroll sockets' poll, the safety net under a missed notice.
import { AGENT_CONTROL_CHANNEL, type AgentControlMessage } from "../../shared/agents/control.ts";
import { grantsOnWire } from "../../shared/domain/agents/capabilities.ts";
import { remintPairingCode } from "../../shared/verbs/agents/link/enroll.ts";
import { readLinkStates } from "../../shared/verbs/agents/link/link-state.ts";
import type { LinkEnv } from "./env.ts";
import { announceTlsPin, requestDeviceKey } from "./key-frames.ts";
import { cancelProbes, dispatchProbes, sendUpdate } from "./outbound.ts";
import { type AgentSession, grantMask } from "./session.ts";

export { AGENT_CONTROL_CHANNEL };

function parse(payload: string): AgentControlMessage | undefined {
  try {
    const m = JSON.parse(payload) as Partial<AgentControlMessage>;
    return typeof m.action === "string" && (m.agent_id === null || typeof m.agent_id === "number") ? (m as AgentControlMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** Held enrollments whose agent is no longer pending hear the decision and close. */
export async function settleEnrollments(env: LinkEnv<AgentSession>, ids: number[]): Promise<void> {
  const held = ids.filter((id) => env.holds.has(id));
  if (held.length === 0) return;
  const states = await readLinkStates({ ctx: env.ctx, input: { ids: held } });
  for (const id of held) {
    const session = env.holds.get(id);
    const status = states.get(id)?.status ?? "deleted";
    if (!session || status === "pending") continue;
    if (status === "active") {
      session.send("hello.ack", { agent_id: id, status: "active" });
      session.close(1000, "approved");
    } else if (status === "rejected") {
      session.send("hello.ack", { agent_id: id, status: "rejected" });
      session.close(1008, "rejected");
    } else session.close(1008, status);
  }
}

/** Held enrollments whose code lapsed get a new one: hello.ack {agent_id, pairing_code}. */
export function remintDue(env: LinkEnv<AgentSession>): Promise<void>[] {
  const now = env.clock.now().getTime();
  const due = [...env.holds.values()].filter((s) => !s.reminting && s.codeExpiresAt <= now);
  return due.map(async (session) => {
    session.reminting = true;
    try {
      const code = await remintPairingCode({ ctx: env.ctx, input: { agent_id: session.agentId } });
      if (!code) return settleEnrollments(env, [session.agentId]);
      session.codeExpiresAt = code.expires_at.getTime();
      session.send("hello.ack", {
        agent_id: session.agentId,
        pairing_code: code.pairing_code,
        magic_link: `/agents/enroll?c=${code.pairing_code}`,
      });
    } finally {
      session.reminting = false;
    }
  });
}

function cut(session: AgentSession, reason: string): void {
  session.send("disconnect", { reason });
  session.close(1008, reason);
}

async function onLinkNotice(env: LinkEnv<AgentSession>, session: AgentSession, action: AgentControlMessage["action"]): Promise<void> {
  if (action === "probe") {
    await cancelProbes(session);
    return dispatchProbes(session);
  }
  const state = (await readLinkStates({ ctx: env.ctx, input: { ids: [session.agentId] } })).get(session.agentId);
  if (!session.open) return;
  if (state?.status !== "active") return cut(session, state ? state.status : "deleted");
  if (action === "capabilities") {
    session.grants = grantMask(state.grants);
    session.send("capabilities.set", { capabilities: grantsOnWire(state.grants, session.capabilitySchema) });
  } else if (action === "update" && state.pending_update) sendUpdate(session, state.pending_update);
  else if (action === "device_key") requestDeviceKey(session);
}

export async function onControl(env: LinkEnv<AgentSession>, payload: string): Promise<void> {
  const message = parse(payload);
  if (!message) return env.logger.warn("agent_control notice not understood", { payload: payload.slice(0, 200) });
  try {
    if (message.action === "server_key") {
      await env.keys.reload(env.clock.now());
      for (const session of env.links.values()) session.sendKeyRotate();
      return;
    }
    if (message.action === "tls_pin") return await announceTlsPin(env);
    const id = message.agent_id;
    if (id === null) return;
    if (message.action === "decided" || message.action === "revoked") await settleEnrollments(env, [id]);
    const link = env.links.get(id);
    if (link) await onLinkNotice(env, link, message.action);
  } catch (e) {
    env.logger.error("agent_control notice failed", { action: message.action, agent_id: message.agent_id, error: String(e) });
  }
}
