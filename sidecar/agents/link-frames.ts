// What a linked agent's frames do (spec/catalogue.tsv, group agents). Each frame's payload is parsed by
// its schema (shared/agents/payloads.ts); its effects go to the write-behind batcher, and the frame is
// marked there so the acknowledgement covers it only once they are committed. The grant gate drops
// telemetry.host, probe.result and discovery.finding from an agent without the grant, with a
// capability_violation event, and keeps the link.
import type { Frame, AgentFrameType } from "../../shared/agents/frames.ts";
import {
  type CapabilityReadinessPayload,
  type DiscoveryFindingPayload,
  type HeartbeatPayload,
  type KeyRotatePayload,
  type LogPayload,
  parseAgentPayload,
  type ProbeResultPayload,
  type TelemetryHostPayload,
  type UninstallPayload,
  type UpdateStatusPayload,
} from "../../shared/agents/payloads.ts";
import { FRAME_GRANTS } from "../../shared/domain/agents/capabilities.ts";
import { uninstallAgent } from "../../shared/verbs/agents/link/uninstall.ts";
import { deviceKeyRotate, noteTlsPins } from "./key-frames.ts";
import { GRANT_BITS, type AgentSession } from "./session.ts";

const TERMINAL_UPDATE_PHASES = new Set(["succeeded", "failed", "rolled_back"]);

export function handleLinkFrame(session: AgentSession, frame: Frame<AgentFrameType>): void {
  const { env, agentId } = session;
  const { batcher } = env;
  if (!batcher.hasRoom) return session.close(1013, "server_busy");
  const now = env.clock.now();
  const at = now.toISOString();
  const grant = FRAME_GRANTS[frame.type];
  if (grant && (session.grants & GRANT_BITS[grant]) === 0) {
    batcher.event({
      agent_id: agentId,
      event_type: "capability_violation",
      detail: { frame_type: frame.type, reason: "not_granted", capability: grant },
      at,
    });
    batcher.seen(agentId, now);
    return batcher.mark(session, frame.seq, performance.now());
  }
  const parsed = parseAgentPayload(frame.type, frame.payload);
  if (!parsed.ok) return session.malformed("malformed_payload", parsed.reason);
  switch (frame.type) {
    case "hello":
      return session.malformed("unexpected_hello", "hello is the first frame only");
    case "heartbeat":
      session.lastHeartbeat = performance.now();
      batcher.seen(agentId, now, parsed.payload as HeartbeatPayload);
      noteTlsPins(session, (parsed.payload as HeartbeatPayload).tls_pins);
      break;
    case "telemetry.host": {
      const p = parsed.payload as TelemetryHostPayload;
      session.noteSpooled(frame.seq);
      batcher.sample({
        agent_id: agentId,
        sample_id: p.sample_id,
        collected_at: p.collected_at ?? frame.ts,
        status: p.status,
        summary: p.summary,
        payload: p as Record<string, unknown>,
      });
      break;
    }
    case "probe.result": {
      const p = parsed.payload as ProbeResultPayload;
      session.noteSpooled(frame.seq);
      session.openRuns.delete(p.run_id);
      batcher.result({
        agent_id: agentId,
        run_id: p.run_id,
        outcome: p.outcome,
        up: p.up,
        finished_at: p.finished_at ?? null,
        samples: p.samples,
        msg: p.msg ?? null,
        details: p.details ?? null,
      });
      break;
    }
    case "discovery.finding":
      env.discovery.finding(agentId, parsed.payload as DiscoveryFindingPayload);
      break;
    case "capability.readiness": {
      const p = parsed.payload as CapabilityReadinessPayload;
      batcher.readiness({ agent_id: agentId, readiness: p.readiness.map((r) => ({ ...r, updated_at: at })), networks: p.networks ?? null });
      break;
    }
    case "capability.violation":
      batcher.event({
        agent_id: agentId,
        event_type: "capability_violation",
        detail: { reported_by: "agent", ...(parsed.payload as object) },
        at,
      });
      break;
    case "update.status": {
      const p = parsed.payload as UpdateStatusPayload;
      batcher.event({ agent_id: agentId, event_type: `update_${p.phase}`, detail: { version: p.version, error: p.error ?? null }, at });
      if (TERMINAL_UPDATE_PHASES.has(p.phase)) batcher.updateDone(agentId, p.version);
      break;
    }
    case "log": {
      const p = parsed.payload as LogPayload;
      env.logger.debug("agent log", { agent_id: agentId, level: p.level, msg: p.msg.slice(0, 500) });
      break;
    }
    case "key.rotate":
      // Answered once recorded; the frame itself carries nothing the batch commits.
      void deviceKeyRotate(session, parsed.payload as KeyRotatePayload);
      break;
    case "uninstall":
      return void uninstall(session, (parsed.payload as UninstallPayload).reason ?? null);
    case "transport.rekey":
      break; // FrameChannel already rekeyed our receiving side
  }
  if (frame.type !== "heartbeat") batcher.seen(agentId, now);
  batcher.mark(session, frame.seq, performance.now());
}

/** The agent revokes itself: committed at once (not batched), then the link closes 1000. */
async function uninstall(session: AgentSession, reason: string | null): Promise<void> {
  session.phase = "busy";
  try {
    await session.env.batcher.flush();
    await uninstallAgent({ ctx: session.env.ctx, input: { agent_id: session.agentId, reason } });
    session.close(1000, "uninstalled");
  } catch (e) {
    session.env.logger.error("agent uninstall failed", { agent_id: session.agentId, error: String(e) });
    session.close(1011, "server_error");
  }
}
