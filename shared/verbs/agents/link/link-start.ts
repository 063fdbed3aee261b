// The start of a link (/agents/link after the handshake and hello): only an active device is linked.
// Its row records who holds the socket (link_owner, this sidecar's instance id), since when, with which
// server key, and what the hello reported; the events say connected, and version_changed / key_rotated
// when the agent comes back on another version or the rotation's successor key. A queued update that
// the agent now runs is done and no longer sent.
import { eq } from "drizzle-orm";
import type { HelloPayload } from "../../../agents/payloads.ts";
import { agents } from "../../../db/schema/index.ts";
import { effectiveGrants, type Grants } from "../../../domain/agents/capabilities.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { dropExpiredSuccessor, promoteDeviceSuccessor } from "../device-key.ts";
import { pendingTlsPinRotation, type TlsPinRotateFrame } from "../tls-pin.ts";
import { announcePresence, recordAgentEvent } from "../notify.ts";
import { ADMIN_AGENTS } from "../scopes.ts";
import { helloColumns } from "./hello-fields.ts";

export interface StartLinkInput {
  device_pk: string;
  hello: HelloPayload;
  reported_ip: string | null;
  /** The sidecar instance taking the link. */
  owner: string;
  /** The server key the handshake was made with, and whether it is a rotation's successor. */
  server_key: { id: number; state: "current" | "successor" };
}

export type StartLinkOutcome =
  | { kind: "refused"; status: "unknown" | "pending" | "rejected" | "revoked"; agent_id: number | null }
  | {
      kind: "linked";
      agent_id: number;
      connected_since: Date;
      grants: Grants;
      capability_schema: number;
      pending_update: Record<string, unknown> | null;
      /** tls.pin.rotate to send: a rotation runs and the agent does not hold its pin yet. */
      tls_pin_rotate: TlsPinRotateFrame | null;
    };

/**
 * The agent whose device key this is: by device_pk, else by a rotation's successor, which this link
 * promotes (or, past its expiry, drops: the link is then refused as unknown).
 */
async function agentOfKey(s: VerbScope, devicePk: string) {
  const [agent] = await s.tx.select().from(agents).where(eq(agents.device_pk, devicePk)).for("update");
  if (agent) {
    await dropExpiredSuccessor(s, agent);
    return agent;
  }
  const [rotating] = await s.tx.select().from(agents).where(eq(agents.device_successor_pk, devicePk)).for("update");
  if (rotating?.status !== "active") return undefined;
  if ((await promoteDeviceSuccessor(s, rotating)) === "expired") return undefined;
  return { ...rotating, device_pk: devicePk };
}

export const startLink = defineVerb<StartLinkInput, StartLinkOutcome>({ scope: ADMIN_AGENTS }, async (s, input) => {
  const agent = await agentOfKey(s, input.device_pk);
  if (!agent) return { kind: "refused", status: "unknown", agent_id: null };
  if (agent.status !== "active") return { kind: "refused", status: agent.status as "pending" | "rejected" | "revoked", agent_id: agent.id };
  const { hello } = input;
  const updateDone = agent.pending_update !== null && agent.pending_update.version === hello.agent_version;
  const pending_update = updateDone ? null : agent.pending_update;
  await s.tx
    .update(agents)
    .set({
      ...helloColumns(hello, input.reported_ip, s.now),
      link_owner: input.owner,
      connected_since: s.now,
      last_seen_at: s.now,
      server_key_id: input.server_key.id,
      pending_update,
      tls_pin_kind: hello.tls_pin_kind ?? null,
      tls_pins: hello.tls_pins ?? null,
    })
    .where(eq(agents.id, agent.id));
  await recordAgentEvent(s, agent.id, "connected", {
    owner: input.owner,
    agent_version: hello.agent_version,
    reported_ip: input.reported_ip,
    server_key_id: input.server_key.id,
  });
  if (agent.agent_version !== null && agent.agent_version !== hello.agent_version)
    await recordAgentEvent(s, agent.id, "version_changed", {
      from: agent.agent_version,
      to: hello.agent_version,
      queued_update: updateDone,
    });
  if (input.server_key.state === "successor" && agent.server_key_id !== input.server_key.id)
    await recordAgentEvent(s, agent.id, "key_rotated", { from_key_id: agent.server_key_id, to_key_id: input.server_key.id });
  announcePresence(s, agent.id, "connected", { owner: input.owner });
  return {
    kind: "linked",
    agent_id: agent.id,
    connected_since: s.now,
    grants: effectiveGrants(agent.capabilities),
    capability_schema: hello.capability_schema,
    pending_update,
    tls_pin_rotate: await pendingTlsPinRotation(s.tx, hello.tls_pins ?? [], s.now),
  };
});
