// POST /agents/pairing/lookup {code}: which pending agent shows this pairing code. The code is single-use:
// a match consumes it (the enroll socket mints a new one if the agent is not decided in time). Only the
// code's hash is stored and compared. A miss answers null; the route counts misses against the guessing
// limits (it holds the rate limiter, verbs do not).
import { and, eq } from "drizzle-orm";
import { agents } from "../../db/schema/index.ts";
import { hashPairingCode } from "../../domain/agents/pairing-code.ts";
import type { PairingMatch } from "../../schemas/agents.ts";
import type * as v from "valibot";
import { defineVerb } from "../verb.ts";
import { auditAgent } from "./notify.ts";
import { presentAgent } from "./present.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

export type PairingMatchShape = v.InferInput<typeof PairingMatch>;

export const lookupPairingCode = defineVerb<{ code: string }, PairingMatchShape | null>({ scope: ADMIN_AGENTS }, async (s, { code }) => {
  const hash = hashPairingCode(code);
  if (!hash) return null;
  const [agent] = await s.tx
    .select()
    .from(agents)
    .where(and(eq(agents.pairing_code_hash, hash), eq(agents.status, "pending")))
    .for("update");
  if (!agent?.pairing_expires_at || agent.pairing_expires_at.getTime() <= s.now.getTime()) return null;
  await s.tx.update(agents).set({ pairing_code_hash: null, pairing_expires_at: null, updated_at: s.now }).where(eq(agents.id, agent.id));
  auditAgent(s, "pairing_lookup", agent.id, { consumed: true, fingerprint: agent.fingerprint });
  const read = await presentAgent(s.tx, agent, s.now);
  return {
    agent_id: agent.id,
    hostname: agent.hostname,
    os: agent.os,
    arch: agent.arch,
    fingerprint: agent.fingerprint,
    proposed_hardware_id: read.proposed_hardware_id,
    proposed_hardware_name: read.proposed_hardware_name,
    duplicate_machine_id: read.duplicate_machine_id,
  };
});
