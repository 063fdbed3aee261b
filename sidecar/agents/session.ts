// One agent socket, /agents/enroll or /agents/link (spec/catalogue.tsv, group agents and the agreed protocol):
// handshake message 1 within handshakeTimeoutMs, then `hello` within helloTimeoutMs, then either the
// enrollment hold or the link. Every byte is the peer's: nothing here throws out of a handler; a bad
// message closes this socket with the close code that names it (1008 bad input, 1013 overload, 1011
// our own failure) and never touches another. The session keeps only small fields; its deadlines are
// checked by the worker's one shared tick (tick()), not by timers of its own.
import type WebSocket from "ws";
import { FrameChannel } from "../../shared/agents/frame-channel.ts";
import { AGENT_FRAME_TYPES, type AgentFrameType, type Frame, FrameError, type ServerFrameType } from "../../shared/agents/frames.ts";
import { type HelloPayload, parseAgentPayload } from "../../shared/agents/payloads.ts";
import { grantsOnWire, type Grants } from "../../shared/domain/agents/capabilities.ts";
import { NoiseError } from "../../shared/noise/index.ts";
import { enrollDevice } from "../../shared/verbs/agents/link/enroll.ts";
import { platformOf } from "../../shared/verbs/agents/binaries.ts";
import { startLink } from "../../shared/verbs/agents/link/link-start.ts";
import type { LinkEnv } from "./env.ts";
import type { AgentEndpoint } from "./gates.ts";
import { MAX_MESSAGE_BYTES } from "./options.ts";

type Phase = "handshake" | "hello" | "busy" | "held" | "linked" | "closed";

export const GRANT_BITS = { host_telemetry: 1, remote_probe: 2, local_discovery: 4 } as const;
export const grantMask = (grants: Grants) =>
  (grants.host_telemetry.enabled ? GRANT_BITS.host_telemetry : 0) |
  (grants.remote_probe.enabled ? GRANT_BITS.remote_probe : 0) |
  (grants.local_discovery.enabled ? GRANT_BITS.local_discovery : 0);

export class AgentSession {
  readonly ws: WebSocket;
  readonly env: LinkEnv<AgentSession>;
  readonly kind: AgentEndpoint;
  /** The client address (after trusted proxies), for reported_ip. */
  readonly ip: string | null;
  phase: Phase = "handshake";
  /** performance.now() of the phase's start: the handshake and hello deadlines count from it. */
  phaseAt: number;
  channel: FrameChannel<AgentFrameType, ServerFrameType> | undefined;
  keyId = 0;
  keyState: "current" | "successor" = "current";
  agentId = 0;
  connectedSince: Date | undefined;
  capabilitySchema = 1;
  /** The TLS pins the agent reported (comma-joined; "" when none). */
  tlsPins = "";
  /** The os/arch the agent's hello reported (lower-case): an `update` for another platform is never sent. */
  platform = { os: "", arch: "" };
  /** GRANT_BITS of the grants in force. */
  grants = 0;
  lastHeartbeat = 0;
  lastPing = 0;
  lastRekey = 0;
  /** Highest seq whose effects are committed; sent as ping {ack_seq}. */
  ackSeq = -1;
  /** Runs sent with probe.assign and not answered yet (at most the grant's max_concurrent, 100). */
  readonly openRuns = new Set<string>();
  /**
   * The frames the agent keeps until acknowledged (telemetry.host, probe.result): the oldest not yet
   * covered by an ack, and the newest. A commit that covers one is acknowledged at once, so the agent's
   * spool (and frame-to-ack latency) stays short; other frames ride on the coalesced or periodic ping.
   */
  #unackedSpooledFrom = Number.POSITIVE_INFINITY;
  #lastSpooledSeq = -1;
  /** Enroll: when the shown pairing code lapses (epoch ms). */
  codeExpiresAt = 0;
  reminting = false;
  /** Messages that arrived while the hello was being answered. */
  early: Uint8Array[] | undefined;
  #onClosed: (() => void) | undefined;
  /** Why the server closed it (the ended row's reason); unset when the peer closed. */
  #closeReason: string | undefined;

  constructor(ws: WebSocket, env: LinkEnv<AgentSession>, kind: AgentEndpoint, ip: string | null) {
    this.ws = ws;
    this.env = env;
    this.kind = kind;
    this.ip = ip;
    this.phaseAt = performance.now();
    env.sessions.add(this);
    ws.on("message", (data, isBinary) => this.#onMessage(data as Buffer, isBinary));
    ws.on("close", () => this.#onClose());
    ws.on("error", () => this.close(1008, "malformed_websocket"));
  }

  get open(): boolean {
    return this.phase !== "closed";
  }

  /** Closes with `code`; the reason names the cause (at most 123 bytes by the WebSocket spec). */
  close(code: number, reason: string): void {
    if (this.phase === "closed") return;
    this.phase = "closed";
    this.#closeReason = reason;
    try {
      this.ws.close(code, reason.slice(0, 120));
    } catch {
      this.ws.terminate();
    }
  }

  /** The drain: close and resolve once the peer answered or graceMs passed. */
  closeAndWait(code: number, reason: string, graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === this.ws.CLOSED) return resolve();
      const timer = setTimeout(() => this.ws.terminate(), graceMs);
      this.#onClosed = () => {
        clearTimeout(timer);
        resolve();
      };
      this.close(code, reason);
    });
  }

  /** One frame to the agent; a frame too large to seal is logged and skipped, never sent in part. */
  send(type: ServerFrameType, payload: Record<string, unknown>): void {
    if (this.phase === "closed" || !this.channel) return;
    try {
      this.ws.send(this.channel.seal(type, payload, this.env.clock.now()));
    } catch (e) {
      this.env.logger.warn("agent frame not sent", { agent_id: this.agentId, type, error: String(e) });
    }
  }

  /** A frame the agent spools arrived with this seq. */
  noteSpooled(seq: number): void {
    this.#lastSpooledSeq = seq;
    if (this.#unackedSpooledFrom === Number.POSITIVE_INFINITY) this.#unackedSpooledFrom = seq;
  }

  /** Whether an ack up to `seq` covers a spooled frame not yet acknowledged (then it should go out now). */
  coversSpooled(seq: number): boolean {
    if (this.#unackedSpooledFrom > seq) return false;
    // Spooled frames after `seq` wait for a later commit; the newest stands for them (at most a batch later).
    this.#unackedSpooledFrom = this.#lastSpooledSeq > seq ? this.#lastSpooledSeq : Number.POSITIVE_INFINITY;
    return true;
  }

  ping(now: number): void {
    this.lastPing = now;
    this.send("ping", { ack_seq: this.ackSeq });
  }

  /** The shared tick: this session's deadlines and periodic frames. */
  tick(now: number): void {
    const o = this.env.options;
    switch (this.phase) {
      case "handshake":
        if (now - this.phaseAt > o.handshakeTimeoutMs) this.close(1008, "handshake_timeout");
        return;
      case "hello":
        if (now - this.phaseAt > o.helloTimeoutMs) this.close(1008, "hello_timeout");
        return;
      case "held":
        if (now - this.lastPing >= o.pingIntervalMs) this.ping(now);
        return;
      case "linked":
        if (now - this.lastHeartbeat > o.heartbeatTimeoutMs) return this.close(1008, "heartbeat_timeout");
        if (now - this.lastPing >= o.pingIntervalMs) this.ping(now);
        if (now - this.lastRekey >= o.rekeyIntervalMs && this.channel) {
          this.lastRekey = now;
          try {
            this.ws.send(this.channel.sealRekey(this.env.clock.now()));
          } catch (e) {
            this.env.logger.warn("agent rekey not sent", { agent_id: this.agentId, error: String(e) });
          }
        }
        return;
      default:
        return;
    }
  }

  // ---- inbound ----

  #onMessage(data: Buffer, isBinary: boolean): void {
    if (this.phase === "closed") return;
    if (!isBinary) return this.#reject("text_frame", "a text message; the link speaks binary messages only");
    if (data.length > MAX_MESSAGE_BYTES)
      return this.#reject("oversize_message", `a message of ${data.length} bytes; at most ${MAX_MESSAGE_BYTES}`);
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.length);
    switch (this.phase) {
      case "handshake":
        return this.#handshake(bytes);
      case "hello":
        return this.#hello(bytes);
      case "busy":
        if (!this.early) this.early = [];
        if (this.early.length >= this.env.options.maxEarlyMessages) return this.close(1008, "too_many_messages_before_hello_ack");
        this.early.push(bytes.slice());
        return;
      case "held": {
        // A pending agent may heartbeat while it waits; its frames must still be well-formed and in order.
        this.#open(bytes);
        return;
      }
      case "linked": {
        const frame = this.#open(bytes);
        if (frame) this.env.frames.handle(this, frame);
        return;
      }
    }
  }

  #handshake(message1: Uint8Array): void {
    const accepted = this.env.keys.accept(message1);
    if (typeof accepted === "string") return this.close(accepted === "server_key_unavailable" ? 1011 : 1008, accepted);
    this.keyId = accepted.key.id;
    this.keyState = accepted.key.state;
    this.channel = new FrameChannel(accepted.transport, AGENT_FRAME_TYPES);
    this.devicePk = accepted.devicePk;
    this.phase = "hello";
    this.phaseAt = performance.now();
    this.ws.send(accepted.reply);
  }

  devicePk = "";

  /**
   * The frame in one transport message, checked: decrypts, well-formed, seq above the last, ts not stale.
   * On any failure the socket is closed (a bad seq or malformed frame of a linked agent is recorded as a
   * protocol_violation event) and null answered.
   */
  #open(bytes: Uint8Array): Frame<AgentFrameType> | null {
    let frame: Frame<AgentFrameType>;
    try {
      frame = this.channel!.open(bytes);
    } catch (e) {
      if (e instanceof NoiseError) {
        this.close(1008, "decrypt_failed");
        return null;
      }
      const reason = e instanceof FrameError ? e.reason : "malformed";
      this.#violation(reason, { message: e instanceof Error ? e.message.slice(0, 200) : "unreadable frame" });
      this.close(1008, reason);
      return null;
    }
    if (frame.type === "hello") return frame; // the clock-skew rule is hello's own
    const ts = Date.parse(frame.ts);
    const now = this.env.clock.now().getTime();
    const o = this.env.options;
    const past = frame.type === "telemetry.host" ? o.telemetryStaleMs : o.staleTsMs;
    if (ts - now > o.futureTsMs || now - ts > past) {
      this.#violation("stale_ts", { type: frame.type, seq: frame.seq, ts: frame.ts });
      this.close(1008, "stale_ts");
      return null;
    }
    return frame;
  }

  /** A protocol_violation event for a linked agent (others have no row to record it on). */
  #violation(reason: string, detail: Record<string, unknown>): void {
    if (!this.connectedSince) return;
    this.env.batcher.event({
      agent_id: this.agentId,
      event_type: "protocol_violation",
      detail: { reason, ...detail },
      at: this.env.clock.now().toISOString(),
    });
  }

  /** Malformed input from a linked agent is recorded; anyone's closes 1008. */
  #reject(reason: string, message: string): void {
    this.#violation(reason, { message });
    this.close(1008, reason);
  }

  /** Frame handlers report a payload that fails its schema (or a frame out of place) here. */
  malformed(reason: string, message: string): void {
    this.#reject(reason, message);
  }

  #hello(bytes: Uint8Array): void {
    const frame = this.#open(bytes);
    if (!frame) return;
    if (frame.type !== "hello") return this.close(1008, "hello_expected");
    const parsed = parseAgentPayload("hello", frame.payload);
    if (!parsed.ok) return this.close(1008, `malformed_hello: ${parsed.reason}`);
    const hello = parsed.payload;
    if (hello.device_pk !== this.devicePk) return this.close(1008, "device_pk_mismatch");
    const now = this.env.clock.now();
    if (Math.abs(now.getTime() - Date.parse(frame.ts)) > this.env.options.clockSkewMs) {
      this.send("hello.ack", { error: "clock_skew", server_time: now.toISOString() });
      return this.close(1008, "clock_skew");
    }
    this.phase = "busy";
    this.capabilitySchema = hello.capability_schema;
    const answer = this.kind === "enroll" ? this.#enroll(hello) : this.#link(hello);
    answer.then(
      () => this.#replayEarly(frame.seq),
      (e: unknown) => {
        this.env.logger.error("agent hello failed", { endpoint: this.kind, error: String(e) });
        this.close(1011, "server_error");
      },
    );
  }

  #replayEarly(helloSeq: number): void {
    this.ackSeq = helloSeq;
    const early = this.early;
    this.early = undefined;
    for (const bytes of early ?? []) {
      if (this.phase === "closed") return;
      this.#onMessage(Buffer.from(bytes), true);
    }
  }

  async #enroll(hello: HelloPayload): Promise<void> {
    const outcome = await enrollDevice({ ctx: this.env.ctx, input: { device_pk: this.devicePk, hello, reported_ip: this.ip } });
    if (this.phase === "closed") return;
    switch (outcome.kind) {
      case "cap":
        return this.close(1013, "pending_cap");
      case "refused":
        return this.close(1008, outcome.status);
      case "active":
        this.send("hello.ack", { already_enrolled: true, status: "active", agent_id: outcome.agent_id });
        return this.close(1000, "already_enrolled");
      case "pending": {
        this.agentId = outcome.agent_id;
        this.env.holds.get(outcome.agent_id)?.close(1000, "superseded");
        this.env.holds.set(outcome.agent_id, this);
        this.codeExpiresAt = outcome.expires_at.getTime();
        this.phase = "held";
        this.lastPing = performance.now();
        this.send("hello.ack", {
          agent_id: outcome.agent_id,
          pairing_code: outcome.pairing_code,
          magic_link: `/agents/enroll?c=${outcome.pairing_code}`,
        });
        return;
      }
    }
  }

  async #link(hello: HelloPayload): Promise<void> {
    const outcome = await startLink({
      ctx: this.env.ctx,
      input: {
        device_pk: this.devicePk,
        hello,
        reported_ip: this.ip,
        owner: this.env.options.instanceId,
        server_key: { id: this.keyId, state: this.keyState },
      },
    });
    if (outcome.kind === "refused") return this.close(1008, outcome.status === "unknown" ? "unknown_device" : outcome.status);
    this.agentId = outcome.agent_id;
    this.connectedSince = outcome.connected_since;
    this.platform = platformOf(hello);
    // Closed while the link was being recorded: record its end too, so no link_owner is left behind.
    if (this.phase === "closed") return this.#ended("closed_during_hello");
    this.env.links.get(outcome.agent_id)?.close(1000, "superseded");
    this.env.links.set(outcome.agent_id, this);
    this.grants = grantMask(outcome.grants);
    this.phase = "linked";
    const now = performance.now();
    this.lastHeartbeat = this.lastPing = this.lastRekey = now;
    this.send("hello.ack", {
      accepted: true,
      agent_id: outcome.agent_id,
      server_time: this.env.clock.now().toISOString(),
      capabilities: grantsOnWire(outcome.grants, this.capabilitySchema),
    });
    this.send("capabilities.set", { capabilities: grantsOnWire(outcome.grants, this.capabilitySchema) });
    this.sendKeyRotate();
    this.tlsPins = (hello.tls_pins ?? []).join(",");
    if (outcome.tls_pin_rotate) this.send("tls.pin.rotate", { ...outcome.tls_pin_rotate });
    if (outcome.pending_update) this.env.frames.sendUpdate(this, outcome.pending_update);
    void this.env.frames.dispatchProbes(this);
    this.env.discovery.linked(outcome.agent_id);
  }

  /** key.rotate {kind: "server"} while a rotation runs, unless the agent already handshook with the successor. */
  sendKeyRotate(): void {
    const successor = this.env.keys.successor();
    if (!successor || this.keyState === "successor") return;
    this.send("key.rotate", {
      kind: "server",
      successor_pk: successor.public_key,
      expiry: successor.overlap_expires_at?.toISOString() ?? null,
    });
  }

  #ended(reason: string): void {
    if (!this.connectedSince) return;
    this.env.batcher.ended({
      agent_id: this.agentId,
      owner: this.env.options.instanceId,
      connected_since: this.connectedSince.toISOString(),
      reason,
    });
    this.connectedSince = undefined;
  }

  #onClose(): void {
    this.phase = "closed";
    const env = this.env;
    env.sessions.delete(this);
    env.ackDirty.delete(this);
    if (env.holds.get(this.agentId) === this) env.holds.delete(this.agentId);
    if (env.links.get(this.agentId) === this) {
      env.links.delete(this.agentId);
      env.discovery.unlinked(this.agentId);
    }
    this.#ended(this.#closeReason ?? "closed_by_agent");
    this.#onClosed?.();
  }
}
