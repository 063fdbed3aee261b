// Device key rotation (docs/agents.md, Rotating an agent's device key; docs/adr/0427): the agent makes
// a successor static key and announces it with `key.rotate {kind: "device", successor_pk, expiry}`;
// beginDeviceKeyRotation records it beside device_pk until the expiry, and the link accepts either key
// (link-start.ts promotes the successor on the first link made with it). An administrator asks a linked
// agent to rotate with POST /agents/{id}/rotate-device-key (requestDeviceKeyRotation), which the sidecar
// holding the link passes on as `key.rotate {kind: "device", request: true}`.
import { and, eq, ne, or } from "drizzle-orm";
import { hexToBytes } from "../../auth/encoding.ts";
import { isOnline } from "../../agents/control.ts";
import type { Db } from "../../db/database.ts";
import { agents } from "../../db/schema/index.ts";
import { keyFingerprint } from "../../domain/agents/fingerprint.ts";
import { ApiError } from "../../errors.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { type AgentRow, requireAgent, requireStatus } from "./agent-row.ts";
import { auditAgent, recordAgentEvent, tellSidecar } from "./notify.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

/** The longest overlap an agent may ask for: a successor unused for longer is not kept. */
export const DEVICE_ROTATION_MAX_MS = 30 * 24 * 3600_000;
/** The shortest: an expiry closer than this leaves no time to reconnect with the successor. */
export const DEVICE_ROTATION_MIN_MS = 60_000;

const fingerprintOf = (pk: string) => keyFingerprint(hexToBytes(pk)!);

export interface BeginDeviceRotationInput {
  agent_id: number;
  /** 64 hex (the frame's schema checked the form). */
  successor_pk: string;
  /** ISO-8601 (the frame's schema checked the form). */
  expiry: string;
}

export type BeginDeviceRotationOutcome = { accepted: true; expires_at: Date } | { accepted: false; reason: string };

/** Why a successor cannot be taken, or undefined when it can. */
async function refusalOf(tx: Db, agent: AgentRow, successor: string, expiry: Date, now: Date): Promise<string | undefined> {
  if (agent.status !== "active") return `the agent is ${agent.status}, not active`;
  if (/^0+$/.test(successor)) return "the successor key is the all-zero X25519 key";
  if (successor === agent.device_pk) return "the successor key is the agent's current key";
  if (Number.isNaN(expiry.getTime())) return "the expiry is not a date";
  if (expiry.getTime() - now.getTime() < DEVICE_ROTATION_MIN_MS)
    return `the expiry ${expiry.toISOString()} is in the past or less than a minute away`;
  if (expiry.getTime() - now.getTime() > DEVICE_ROTATION_MAX_MS)
    return `the expiry ${expiry.toISOString()} is more than ${DEVICE_ROTATION_MAX_MS / 86_400_000} days away`;
  const [taken] = await tx
    .select({ id: agents.id })
    .from(agents)
    .where(and(ne(agents.id, agent.id), or(eq(agents.device_pk, successor), eq(agents.device_successor_pk, successor))))
    .limit(1);
  if (taken) return "the successor key is already another agent's key";
  return undefined;
}

/** key.rotate {kind: "device"} from a linked agent (the sidecar, as the system). A refusal changes nothing but the event. */
export const beginDeviceKeyRotation = defineVerb<BeginDeviceRotationInput, BeginDeviceRotationOutcome>(
  { scope: ADMIN_AGENTS },
  async (s, input) => {
    const agent = await requireAgent(s.tx, input.agent_id, { forUpdate: true });
    const expiry = new Date(input.expiry);
    const reason = await refusalOf(s.tx, agent, input.successor_pk, expiry, s.now);
    const successor_fingerprint = fingerprintOf(input.successor_pk);
    if (reason) {
      await recordAgentEvent(s, agent.id, "key_rotation_rejected", { kind: "device", successor_fingerprint, reason });
      return { accepted: false, reason };
    }
    const replaced = agent.device_successor_pk !== null && agent.device_successor_pk !== input.successor_pk;
    await s.tx
      .update(agents)
      .set({ device_successor_pk: input.successor_pk, device_successor_expires_at: expiry, updated_at: s.now })
      .where(eq(agents.id, agent.id));
    const detail = {
      current_fingerprint: agent.fingerprint,
      successor_fingerprint,
      expires_at: expiry.toISOString(),
      ...(replaced ? { replaced_fingerprint: fingerprintOf(agent.device_successor_pk!) } : {}),
    };
    await recordAgentEvent(s, agent.id, "device_key_rotation_started", detail);
    auditAgent(s, "device_key_rotation_started", agent.id, detail);
    return { accepted: true, expires_at: expiry };
  },
);

/**
 * The link of a device whose key is some agent's successor: the first link with it makes it the agent's
 * key (the old one is refused from then); past the expiry the successor is dropped and the link refused.
 * Called by startLink in its transaction, the agent's row locked.
 */
export async function promoteDeviceSuccessor(s: VerbScope, agent: AgentRow): Promise<"promoted" | "expired"> {
  const successor = agent.device_successor_pk!;
  if (!agent.device_successor_expires_at || agent.device_successor_expires_at <= s.now) {
    await dropExpiredSuccessor(s, agent);
    return "expired";
  }
  const fingerprint = fingerprintOf(successor);
  await s.tx
    .update(agents)
    .set({ device_pk: successor, fingerprint, device_successor_pk: null, device_successor_expires_at: null, updated_at: s.now })
    .where(eq(agents.id, agent.id));
  const detail = { from_fingerprint: agent.fingerprint, to_fingerprint: fingerprint };
  await recordAgentEvent(s, agent.id, "device_key_rotated", detail);
  auditAgent(s, "device_key_rotated", agent.id, detail);
  return "promoted";
}

/** A successor past its expiry, never linked with: forgotten, with an event saying so. */
export async function dropExpiredSuccessor(s: VerbScope, agent: AgentRow): Promise<void> {
  if (!agent.device_successor_pk || (agent.device_successor_expires_at && agent.device_successor_expires_at > s.now)) return;
  await s.tx
    .update(agents)
    .set({ device_successor_pk: null, device_successor_expires_at: null, updated_at: s.now })
    .where(eq(agents.id, agent.id));
  await recordAgentEvent(s, agent.id, "device_key_rotation_expired", {
    successor_fingerprint: fingerprintOf(agent.device_successor_pk),
    expired_at: agent.device_successor_expires_at?.toISOString() ?? null,
  });
}

export interface RotationRequested {
  agent_id: number;
  status: "requested";
  requested_at: string;
}

/** POST /agents/{id}/rotate-device-key: asks the linked agent to make and announce a successor key. */
export const requestDeviceKeyRotation = defineVerb<{ id: number }, RotationRequested>({ scope: ADMIN_AGENTS }, async (s, { id }) => {
  const agent = await requireAgent(s.tx, id, { forUpdate: true });
  requireStatus(agent, ["active"], "rotate its device key");
  if (!isOnline(agent, s.now))
    throw ApiError.conflict(`Agent ${id} is not linked: the request reaches only a linked agent; ask again once it is online.`, {
      status: "offline",
    });
  await recordAgentEvent(s, id, "device_key_rotation_requested", { current_fingerprint: agent.fingerprint });
  auditAgent(s, "device_key_rotation_requested", id, { current_fingerprint: agent.fingerprint });
  tellSidecar(s, id, "device_key");
  return { agent_id: id, status: "requested", requested_at: s.now.toISOString() };
});
