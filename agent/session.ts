// One linked connection (/api/v1/agents/link) from hello to close: answers the server's frames, sends a
// heartbeat every 20 s and the spooled telemetry.host / probe.result frames (the unacknowledged ones of
// earlier connections first, once hello.ack accepted the link), drops what a `ping {ack_seq}` covers, and
// rekeys its sending side every 15 minutes. It ends when the socket does; how it ended tells the agent
// whether to reconnect (`lost`) or stop (`revoked`, `rejected`), or enroll again (`unknown`).
import type { AgentLog } from "./log.ts";
import type { Connection, ServerFrame } from "./connection.ts";
import { parseGrants, type AgentGrants } from "./grants.ts";
import { buildHeartbeat } from "./payloads.ts";
import type { DiscoveryScanner } from "./discovery/scanner.ts";
import type { ProbeRunner } from "./probes/runner.ts";
import type { Spool, SpoolEntry } from "./spool.ts";

export const HEARTBEAT_MS = 20_000;

export type SessionEnd =
  /** heldMs: how long the link was up (0: never accepted). */
  | { kind: "lost"; code: number; reason: string; heldMs: number }
  | { kind: "revoked" | "rejected"; reason: string }
  | { kind: "unknown"; reason: string };

export interface SessionHooks {
  spool: Spool;
  runner: ProbeRunner;
  /** Runs discovery.request scans; without one they are ignored. */
  discovery?: DiscoveryScanner;
  log: AgentLog;
  hello(): Record<string, unknown>;
  onLinked(agentId: number): void;
  onGrants(grants: AgentGrants): void;
  onServerKeyRotation(successorPk: string, expiry: string | null): void;
  /** key.rotate {kind: "device"}: a request to rotate, or the answer to ours (device-key.ts). */
  onDeviceKeyRotate?(payload: Record<string, unknown>): void;
  /** tls.pin.rotate (tls-pin.ts). */
  onTlsPinRotate?(payload: Record<string, unknown>): void;
  onAck(ackSeq: number, acknowledged: SpoolEntry[]): void;
  /** An `update` offer (agent/update/updater.ts answers it with update.status). */
  onUpdate(payload: Record<string, unknown>): void;
  heartbeatMs?: number;
  rekeyMs?: number;
}

/** Close reasons the server gives for a device it will not link. */
export function refusalOf(reason: string): "revoked" | "rejected" | "unknown" | undefined {
  if (/revoked/i.test(reason)) return "revoked";
  if (/rejected/i.test(reason)) return "rejected";
  if (/unknown[_ ]device/i.test(reason)) return "unknown";
  return undefined;
}

let connections = 0;

export class Session {
  readonly id = ++connections;
  readonly #conn: Connection;
  readonly #h: SessionHooks;
  #linked = false;
  #linkedAt = 0;
  #final: SessionEnd | undefined;
  readonly #timers: NodeJS.Timeout[] = [];

  constructor(conn: Connection, hooks: SessionHooks) {
    this.#conn = conn;
    this.#h = hooks;
  }

  get linked(): boolean {
    return this.#linked && !this.#conn.isClosed;
  }

  /** Runs the session until the socket closes. */
  async run(): Promise<SessionEnd> {
    this.#conn.onFrame((f) => this.#onFrame(f));
    this.#conn.send("hello", this.#h.hello());
    const closed = await this.#conn.closed;
    for (const t of this.#timers) clearInterval(t);
    if (this.#final) return this.#final;
    const refusal = refusalOf(closed.reason);
    if (refusal && closed.code === 1008) return { kind: refusal, reason: closed.reason };
    return { kind: "lost", code: closed.code, reason: closed.reason, heldMs: this.#linked ? performance.now() - this.#linkedAt : 0 };
  }

  /** Sends a frame that is not spooled (discovery findings, update.status, key.rotate) if the link is up; false when it is not. */
  sendLive(type: "discovery.finding" | "update.status" | "key.rotate" | "heartbeat", payload: Record<string, unknown>): boolean {
    if (!this.linked) return false;
    try {
      this.#conn.send(type, payload);
      return true;
    } catch (e) {
      this.#h.log.error(`${type} dropped: ${(e as Error).message}`);
      return false;
    }
  }

  /** Sends one spooled entry now if the link is up (else it waits in the spool for the next link). */
  offer(entry: SpoolEntry): void {
    if (!this.linked) return;
    let seq: number | undefined;
    try {
      seq = this.#conn.send(entry.type, entry.payload);
    } catch (e) {
      // Only a frame over MAX_FRAME_BYTES fails here; it would fail on every link, so it goes.
      this.#h.log.error(`${entry.type} dropped: ${(e as Error).message}`);
      this.#h.spool.drop(entry);
      return;
    }
    if (seq !== undefined) this.#h.spool.markSent(entry, this.id, seq);
  }

  #onFrame(f: ServerFrame): void {
    const p = f.payload;
    switch (f.type) {
      case "hello.ack":
        return this.#onHelloAck(p);
      case "capabilities.set":
        return this.#h.onGrants(parseGrants(p.capabilities));
      case "ping": {
        if (typeof p.ack_seq === "number") this.#h.onAck(p.ack_seq, this.#h.spool.acknowledge(this.id, p.ack_seq));
        return;
      }
      case "key.rotate":
        if (p.kind === "server" && typeof p.successor_pk === "string" && /^[0-9a-f]{64}$/.test(p.successor_pk))
          this.#h.onServerKeyRotation(p.successor_pk, typeof p.expiry === "string" ? p.expiry : null);
        else if (p.kind === "device") this.#h.onDeviceKeyRotate?.(p);
        return;
      case "tls.pin.rotate":
        return this.#h.onTlsPinRotate?.(p);
      case "probe.assign":
        return this.#h.runner.assign(p);
      case "probe.cancel":
        return this.#h.runner.cancel(p.run_id, p.reason);
      case "discovery.request":
        if (this.#h.discovery) return this.#h.discovery.request(p);
        this.#h.log.debug("discovery.request ignored: no scanner");
        return;
      case "discovery.cancel":
        return this.#h.discovery?.cancel(p);
      case "update":
        return this.#h.onUpdate(p);
      case "disconnect": {
        const reason = typeof p.reason === "string" ? p.reason : "";
        const refusal = refusalOf(reason);
        this.#final = refusal ? { kind: refusal, reason } : undefined;
        this.#h.log.warn(`the server disconnects this agent${reason ? `: ${reason}` : ""}`);
        return;
      }
      default:
        // transport.rekey is the FrameChannel's.
        this.#h.log.debug(`${f.type} frame ignored`);
    }
  }

  #onHelloAck(p: Record<string, unknown>): void {
    if (p.accepted !== true) {
      this.#h.log.error(`the server refused the link: ${JSON.stringify(p).slice(0, 200)}`);
      return;
    }
    this.#linked = true;
    this.#linkedAt = performance.now();
    if (typeof p.agent_id === "number") this.#h.onLinked(p.agent_id);
    if (p.capabilities !== undefined) this.#h.onGrants(parseGrants(p.capabilities));
    this.#heartbeat();
    for (const entry of this.#h.spool.unsent(this.id)) this.offer(entry);
    this.#timers.push(setInterval(() => this.#heartbeat(), this.#h.heartbeatMs ?? HEARTBEAT_MS));
    this.#timers.push(setInterval(() => this.#conn.rekey(), this.#h.rekeyMs ?? 15 * 60_000));
  }

  #heartbeat(): void {
    const s = this.#h.spool.stats();
    this.#conn.send("heartbeat", buildHeartbeat(s));
  }
}
