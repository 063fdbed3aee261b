// The verbs of the /agents/enroll socket (spec/catalogue.tsv, group agents): a
// device that completed the handshake and said hello becomes (or stays) a pending agent with a fresh
// single-use pairing code, which the socket shows it and the administrator types into pairing/lookup.
// One transaction each: a refusal (the pending cap, a rejected or revoked device) writes nothing, and a
// new row is never left without its code and its `enrolled` event.
import { and, count, eq, sql } from "drizzle-orm";
import type { HelloPayload } from "../../../agents/payloads.ts";
import { hexToBytes } from "../../../auth/encoding.ts";
import { agents } from "../../../db/schema/index.ts";
import { keyFingerprint } from "../../../domain/agents/fingerprint.ts";
import { hashPairingCode, mintPairingCode, PAIRING_CODE_TTL_MS } from "../../../domain/agents/pairing-code.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { announcePresence, auditAgent, recordAgentEvent } from "../notify.ts";
import { ADMIN_AGENTS } from "../scopes.ts";
import { helloColumns } from "./hello-fields.ts";

/** Pending enrollments the installation holds at most (reference: 100 concurrent; then close 1013). */
export const MAX_PENDING_AGENTS = 100;
const ENROLL_LOCK = sql`select pg_advisory_xact_lock(hashtext('agent_enroll'))`;

export interface EnrollInput {
  /** 64 hex: the static key the Noise handshake authenticated (hello.device_pk was checked against it). */
  device_pk: string;
  hello: HelloPayload;
  reported_ip: string | null;
}

export type EnrollOutcome =
  | { kind: "pending"; agent_id: number; pairing_code: string; expires_at: Date; created: boolean }
  | { kind: "active"; agent_id: number }
  | { kind: "refused"; agent_id: number; status: string }
  | { kind: "cap" };

/** A fresh code for a pending row: only its hash is stored; the clear text goes to the socket alone. */
function freshCode(s: VerbScope) {
  const pairing_code = mintPairingCode(s.ctx.random);
  const expires_at = new Date(s.now.getTime() + PAIRING_CODE_TTL_MS);
  return { pairing_code, expires_at, columns: { pairing_code_hash: hashPairingCode(pairing_code)!, pairing_expires_at: expires_at } };
}

export const enrollDevice = defineVerb<EnrollInput, EnrollOutcome>(
  { scope: ADMIN_AGENTS },
  async (s, { device_pk, hello, reported_ip }) => {
    // One enrollment at a time counts the pending cap, so 100 is never passed by a race.
    await s.tx.execute(ENROLL_LOCK);
    const [existing] = await s.tx.select().from(agents).where(eq(agents.device_pk, device_pk)).for("update");
    if (existing?.status === "active") return { kind: "active", agent_id: existing.id };
    if (existing && existing.status !== "pending") return { kind: "refused", agent_id: existing.id, status: existing.status };
    const code = freshCode(s);
    if (existing) {
      await s.tx
        .update(agents)
        .set({ ...helloColumns(hello, reported_ip, s.now), ...code.columns })
        .where(eq(agents.id, existing.id));
      return { kind: "pending", agent_id: existing.id, pairing_code: code.pairing_code, expires_at: code.expires_at, created: false };
    }
    const [pending] = await s.tx.select({ n: count() }).from(agents).where(eq(agents.status, "pending"));
    if ((pending?.n ?? 0) >= MAX_PENDING_AGENTS) return { kind: "cap" };
    const [row] = await s.tx
      .insert(agents)
      .values({
        ...helloColumns(hello, reported_ip, s.now),
        status: "pending",
        device_pk,
        fingerprint: keyFingerprint(hexToBytes(device_pk)!),
        enrolled_at: s.now,
        created_at: s.now,
        ...code.columns,
      })
      .returning({ id: agents.id });
    const id = row!.id;
    const detail = { hostname: hello.hostname, os: hello.os, arch: hello.arch, agent_version: hello.agent_version, reported_ip };
    await recordAgentEvent(s, id, "enrolled", detail);
    auditAgent(s, "enroll", id, { after: { status: "pending", device_pk, ...detail } });
    announcePresence(s, id, "enrolled", { hostname: hello.hostname });
    return { kind: "pending", agent_id: id, pairing_code: code.pairing_code, expires_at: code.expires_at, created: true };
  },
);

/** A new code for a still-pending agent whose code lapsed (or was consumed by a lookup); null once decided. */
export const remintPairingCode = defineVerb<{ agent_id: number }, { pairing_code: string; expires_at: Date } | null>(
  { scope: ADMIN_AGENTS },
  async (s, { agent_id }) => {
    const code = freshCode(s);
    const [row] = await s.tx
      .update(agents)
      .set({ ...code.columns, updated_at: s.now })
      .where(and(eq(agents.id, agent_id), eq(agents.status, "pending")))
      .returning({ id: agents.id });
    return row ? { pairing_code: code.pairing_code, expires_at: code.expires_at } : null;
  },
);
