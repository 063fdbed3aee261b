// TLS pin rotation (docs/agents.md, TLS pinning; docs/adr/0428): POST /agents/tls-pin/rotate stores a
// successor pin (given, or taken from a stored certificate) with its mode and expiry; every linked agent
// hears `tls.pin.rotate` at once (agent_control "tls_pin"), every other one when it next links, until it
// reports holding the pin (hello / heartbeat `tls_pins`). GET /agents/tls-pin/status shows each agent's
// pin kind and whether it acknowledged the successor.
import { and, asc, eq, gt } from "drizzle-orm";
import { AGENT_CONTROL_CHANNEL } from "../../agents/control.ts";
import { spkiPin, type TlsPinMode } from "../../agents/tls-pin.ts";
import type { Db } from "../../db/database.ts";
import { agents, agentTlsPinRotations, certificates } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { parseChain } from "../certificates/x509.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { recordAgentEvent } from "./notify.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

/** The overlap when none is given, and the longest one taken. */
export const TLS_PIN_OVERLAP_MS = 7 * 24 * 3600_000;
export const TLS_PIN_MAX_OVERLAP_MS = 90 * 24 * 3600_000;

export interface TlsPinRotateFrame {
  mode: TlsPinMode;
  successor_pin: string;
  expiry: string;
}

type RotationRow = typeof agentTlsPinRotations.$inferSelect;

/** The pin of a PEM certificate's leaf (the first certificate of the chain). */
export function certificatePin(certPem: string): string {
  return spkiPin(new Uint8Array(parseChain(certPem)[0]!.publicKey.rawData));
}

async function runningRotation(db: Db, now: Date): Promise<RotationRow | undefined> {
  const [row] = await db
    .select()
    .from(agentTlsPinRotations)
    .where(and(eq(agentTlsPinRotations.state, "active"), gt(agentTlsPinRotations.expires_at, now)));
  return row;
}

const frameOf = (r: RotationRow): TlsPinRotateFrame => ({
  mode: r.mode as TlsPinMode,
  successor_pin: r.successor_pin,
  expiry: r.expires_at.toISOString(),
});

/** The tls.pin.rotate an agent holding `pins` still needs, or null (none running, or it holds the successor). */
export async function pendingTlsPinRotation(db: Db, pins: readonly string[], now: Date): Promise<TlsPinRotateFrame | null> {
  const row = await runningRotation(db, now);
  return row && !pins.includes(row.successor_pin) ? frameOf(row) : null;
}

/** The running rotation's frame for every link (agent_control "tls_pin"); null when none runs. */
export const tlsPinRotationFrame = defineRead<undefined, TlsPinRotateFrame | null>({ scope: ADMIN_AGENTS }, async (ctx) => {
  const row = await runningRotation(ctx.db, ctx.clock.now());
  return row ? frameOf(row) : null;
});

/** The active certificate and its pin, or null when none is active. */
export async function activeCertificatePin(db: Db) {
  const [row] = await db
    .select({ id: certificates.id, cert_pem: certificates.cert_pem, type: certificates.type, domain: certificates.domain })
    .from(certificates)
    .where(eq(certificates.is_active, true));
  return row ? { id: row.id, type: row.type, domain: row.domain, pin: certificatePin(row.cert_pem) } : null;
}

export interface TlsPinStatusShape {
  rotation: (TlsPinRotateFrame & { certificate_id: number | null; started_at: string }) | null;
  active_certificate: { id: number; type: string; domain: string; pin: string } | null;
  fleet: { total: number; acknowledged: number; pending: number };
  agents: {
    id: number;
    name: string | null;
    hostname: string | null;
    tls_pin_kind: string | null;
    tls_pins: string[];
    acknowledged: boolean | null;
    last_seen_at: string | null;
  }[];
}

async function statusOf(db: Db, now: Date): Promise<TlsPinStatusShape> {
  const row = await runningRotation(db, now);
  const rows = await db
    .select({
      id: agents.id,
      name: agents.name,
      hostname: agents.hostname,
      tls_pin_kind: agents.tls_pin_kind,
      tls_pins: agents.tls_pins,
      last_seen_at: agents.last_seen_at,
    })
    .from(agents)
    .where(eq(agents.status, "active"))
    .orderBy(asc(agents.id));
  const listed = rows.map((r) => ({
    id: r.id,
    name: r.name,
    hostname: r.hostname,
    tls_pin_kind: r.tls_pin_kind,
    tls_pins: r.tls_pins ?? [],
    acknowledged: row ? (r.tls_pins ?? []).includes(row.successor_pin) : null,
    last_seen_at: r.last_seen_at?.toISOString() ?? null,
  }));
  const acknowledged = listed.filter((a) => a.acknowledged === true).length;
  return {
    rotation: row ? { ...frameOf(row), certificate_id: row.certificate_id, started_at: row.started_at.toISOString() } : null,
    active_certificate: await activeCertificatePin(db),
    fleet: { total: listed.length, acknowledged, pending: row ? listed.length - acknowledged : 0 },
    agents: listed.slice(0, 200),
  };
}

/** GET /agents/tls-pin/status: the running rotation and each active agent's pins (at most 200 agents listed). */
export const tlsPinStatus = defineRead<undefined, TlsPinStatusShape>({ scope: ADMIN_AGENTS }, async (ctx) =>
  statusOf(ctx.db, ctx.clock.now()),
);

export interface RotateTlsPinInput {
  successor_pin?: string | undefined;
  certificate_id?: number | undefined;
  mode?: TlsPinMode | undefined;
  expiry?: string | undefined;
}

const invalid = (field: string, msg: string) => ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);

/** POST /agents/tls-pin/rotate: a successor pin for every agent, accepted beside its current pin until the expiry. */
export const rotateTlsPin = defineVerb<RotateTlsPinInput, TlsPinStatusShape>({ scope: ADMIN_AGENTS }, async (s, input) => {
  if ((input.successor_pin === undefined) === (input.certificate_id === undefined))
    throw invalid("successor_pin", "Give exactly one of successor_pin and certificate_id.");
  let pin = input.successor_pin;
  let mode = input.mode;
  if (input.certificate_id !== undefined) {
    const [cert] = await s.tx.select().from(certificates).where(eq(certificates.id, input.certificate_id));
    if (!cert) throw ApiError.notFound("Certificate", input.certificate_id);
    pin = certificatePin(cert.cert_pem);
    mode ??= cert.type === "selfsigned" ? "self_signed" : "public";
  }
  mode ??= "self_signed";
  const expiry = input.expiry ? new Date(input.expiry) : new Date(s.now.getTime() + TLS_PIN_OVERLAP_MS);
  if (expiry.getTime() <= s.now.getTime() + 60_000) throw invalid("expiry", "The expiry must be more than a minute in the future.");
  if (expiry.getTime() > s.now.getTime() + TLS_PIN_MAX_OVERLAP_MS)
    throw invalid("expiry", `The expiry must be at most ${TLS_PIN_MAX_OVERLAP_MS / 86_400_000} days away.`);
  const superseded = await s.tx
    .update(agentTlsPinRotations)
    .set({ state: "superseded" })
    .where(eq(agentTlsPinRotations.state, "active"))
    .returning({ id: agentTlsPinRotations.id });
  const [row] = await s.tx
    .insert(agentTlsPinRotations)
    .values({
      mode,
      successor_pin: pin!,
      certificate_id: input.certificate_id ?? null,
      expires_at: expiry,
      started_at: s.now,
      started_by: s.ctx.actor?.userId ?? null,
    })
    .returning();
  s.audit({
    action: "agents.tls_pin_rotate",
    category: "agents",
    entity_type: "agent_tls_pin_rotation",
    entity_id: row!.id,
    diff: {
      mode,
      successor_pin: pin,
      certificate_id: input.certificate_id ?? null,
      expiry: expiry.toISOString(),
      superseded: superseded.map((r) => r.id),
    },
  });
  s.emit(AGENT_CONTROL_CHANNEL, { agent_id: null, action: "tls_pin" });
  return statusOf(s.tx, s.now);
});

/** A heartbeat reported other pins than the link knew: stored, with an event when it now holds the successor. */
export const recordTlsPins = defineVerb<{ agent_id: number; tls_pins: string[] }, void>({ scope: ADMIN_AGENTS }, async (s, input) => {
  await s.tx.update(agents).set({ tls_pins: input.tls_pins }).where(eq(agents.id, input.agent_id));
  const row = await runningRotation(s.tx, s.now);
  if (row && input.tls_pins.includes(row.successor_pin))
    await recordAgentEvent(s, input.agent_id, "tls_pin_acknowledged", { successor_pin: row.successor_pin, rotation_id: row.id });
});
