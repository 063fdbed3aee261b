// Shared set-up of the agents API tests: signed-in actors, a driven clock, and agent rows arranged with
// SQL the way the sidecar would have written them (enrollment, a live link, samples), plus a collector of
// the NOTIFY payloads verbs send on commit.
import { randomBytes } from "node:crypto";
import { hashPairingCode, mintPairingCode } from "../../../shared/domain/agents/pairing-code.ts";
import { cryptoRandom } from "../../../shared/clock.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

export interface AgentSeed {
  status?: "pending" | "active" | "rejected" | "revoked";
  name?: string | null;
  hostname?: string | null;
  os?: string | null;
  arch?: string | null;
  machine_id_hash?: string | null;
  primary_macs?: string[];
  networks?: unknown[];
  readiness?: unknown[];
  reported_ip?: string | null;
  hardware_id?: number | null;
  proposed_hardware_id?: number | null;
  capabilities?: Record<string, unknown>;
  /** Linked now: link_owner set, connected and heard from at the clock's now. */
  online?: boolean;
  /** A pairing code for a pending agent (stored hashed), valid 15 minutes from the clock's now. */
  pairing_code?: string;
  agent_version?: string | null;
}

export interface AgentActors extends Actors {
  clock: { at: Date; now(): Date; advance(ms: number): void };
  agent(seed?: AgentSeed): Promise<number>;
  node(name: string, extra?: { ip?: string | null; mac?: string | null }): Promise<number>;
  /** Collects the payloads NOTIFYed on `channel` from now on. */
  listen(channel: string): Promise<{ payloads: Record<string, unknown>[]; stop(): Promise<void> }>;
  /** A fresh pairing code as an agent would show it. */
  code(): string;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

export async function createAgentActors(env: Record<string, string> = {}): Promise<AgentActors> {
  const a = await createActors(env);
  const clock = {
    at: new Date(Math.floor(Date.now() / 1000) * 1000),
    now: () => new Date(clock.at),
    advance: (ms: number) => void (clock.at = new Date(clock.at.getTime() + ms)),
  };
  a.t.runtime.deps.clock = clock;
  const sql = a.t.sql;
  return {
    ...a,
    clock,
    code: () => mintPairingCode(cryptoRandom),
    async agent(seed = {}) {
      const now = clock.now();
      const online = seed.online ?? false;
      const [row] = await sql<{ id: number }[]>`
        insert into agents (name, hostname, status, os, arch, agent_version, device_pk, fingerprint, machine_id_hash, primary_macs, networks, readiness,
          reported_ip, hardware_id, proposed_hardware_id, capabilities, pairing_code_hash, pairing_expires_at, enrolled_at, approved_at,
          link_owner, connected_since, last_seen_at)
        values (${seed.name ?? null}, ${seed.hostname === undefined ? `host-${hex(3)}` : seed.hostname}, ${seed.status ?? "pending"},
          ${seed.os === undefined ? "linux" : seed.os}, ${seed.arch === undefined ? "amd64" : seed.arch}, ${seed.agent_version ?? "1.0.0"},
          ${hex(32)}, ${hex(16)}, ${seed.machine_id_hash ?? null}, ${sql.json(seed.primary_macs ?? [])}, ${sql.json((seed.networks ?? []) as never)},
          ${sql.json((seed.readiness ?? []) as never)}, ${seed.reported_ip ?? null}, ${seed.hardware_id ?? null}, ${seed.proposed_hardware_id ?? null},
          ${sql.json((seed.capabilities ?? {}) as never)}, ${seed.pairing_code ? hashPairingCode(seed.pairing_code) : null},
          ${seed.pairing_code ? new Date(now.getTime() + 15 * 60_000) : null}, ${now},
          ${seed.status === "active" ? now : null}, ${online ? "sidecar-test" : null}, ${online ? now : null}, ${online ? now : null})
        returning id`;
      return row!.id;
    },
    async node(name, extra = {}) {
      const [row] = await sql<
        { id: number }[]
      >`insert into hardware (name, ip_address, mac_address) values (${name}, ${extra.ip ?? null}, ${extra.mac ?? null}) returning id`;
      return row!.id;
    },
    async listen(channel) {
      const payloads: Record<string, unknown>[] = [];
      const { unlisten } = await sql.listen(channel, (p) => payloads.push(JSON.parse(p)));
      return { payloads, stop: unlisten };
    },
  };
}

/** Waits (bounded) until `check` holds: NOTIFY is delivered asynchronously after commit. */
export async function eventually(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

/** A network report as an agent's hello carries it. */
export const lan = (...addrs: string[]) => [{ name: "eth0", flags: ["up"], addrs }];

/** Every probe collector ready. */
export const probesReady = ["icmp", "tcp", "http", "dns"].map((t) => ({
  collector: `probe.${t}`,
  state: "ready",
  reason: null,
  remediation: null,
  missing: [],
}));
