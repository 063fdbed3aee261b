// The link's key and pin frames (docs/agents.md, Rotating an agent's device key and TLS pinning):
// `key.rotate {kind: "device"}` from the agent is recorded (device-key.ts) and answered with
// `key.rotate {kind: "device", successor_pk, status: accepted | rejected, reason?}`; an administrator's
// request reaches the agent as `key.rotate {kind: "device", request: true}`; `tls.pin.rotate` goes to
// every link while a pin rotation runs, and the pins an agent reports in a heartbeat are stored.
import type { KeyRotatePayload } from "../../shared/agents/payloads.ts";
import { beginDeviceKeyRotation } from "../../shared/verbs/agents/device-key.ts";
import { recordTlsPins, tlsPinRotationFrame } from "../../shared/verbs/agents/tls-pin.ts";
import type { LinkEnv } from "./env.ts";
import type { AgentSession } from "./session.ts";

/** The agent's successor key: recorded (or refused, with the reason) and answered on the link. */
export async function deviceKeyRotate(session: AgentSession, p: KeyRotatePayload): Promise<void> {
  try {
    const outcome = await beginDeviceKeyRotation({
      ctx: session.env.ctx,
      input: { agent_id: session.agentId, successor_pk: p.successor_pk, expiry: p.expiry },
    });
    session.send(
      "key.rotate",
      outcome.accepted
        ? { kind: "device", successor_pk: p.successor_pk, status: "accepted", expiry: outcome.expires_at.toISOString() }
        : { kind: "device", successor_pk: p.successor_pk, status: "rejected", reason: outcome.reason },
    );
  } catch (e) {
    session.env.logger.error("device key rotation failed", { agent_id: session.agentId, error: String(e) });
    session.send("key.rotate", { kind: "device", successor_pk: p.successor_pk, status: "rejected", reason: "server error; try again" });
  }
}

/** An administrator's request: the agent makes a successor and announces it. */
export function requestDeviceKey(session: AgentSession): void {
  session.send("key.rotate", { kind: "device", request: true });
}

/** agent_control "tls_pin": the running rotation to every link (an agent already holding it ignores it). */
export async function announceTlsPin(env: LinkEnv<AgentSession>): Promise<void> {
  const frame = await tlsPinRotationFrame({ ctx: env.ctx });
  if (!frame) return;
  for (const session of env.links.values())
    if (!session.tlsPins.includes(frame.successor_pin)) session.send("tls.pin.rotate", { ...frame });
}

/** A heartbeat's tls_pins, stored when they differ from what the link last knew. */
export function noteTlsPins(session: AgentSession, pins: string[] | undefined): void {
  if (pins === undefined) return;
  const joined = pins.join(",");
  if (joined === session.tlsPins) return;
  session.tlsPins = joined;
  recordTlsPins({ ctx: session.env.ctx, input: { agent_id: session.agentId, tls_pins: pins } }).catch((e: unknown) =>
    session.env.logger.error("agent tls pins not stored", { agent_id: session.agentId, error: String(e) }),
  );
}
