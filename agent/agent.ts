// The reference agent: enrolls once (printing its pairing code), then keeps a link up, reconnecting with
// jittered exponential backoff, until it is stopped, revoked or rejected. Telemetry is sampled at the
// granted interval whether or not a link is up (the spool carries it over an outage); probe results go
// the same way. Everything it needs comes in through AgentOptions, so tests run it in-process as well as
// through bin/agent.ts.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import type { KeyPair } from "../shared/noise/index.ts";
import { EXIT_RESTART } from "../shared/agents/update-layout.ts";
import { Backoff, type BackoffOptions } from "./backoff.ts";
import { Connection, LinkClosed } from "./connection.ts";
import { DeviceKeys } from "./device-key.ts";
import { KeyHooks, type KeyEvent } from "./key-hooks.ts";
import { enroll, type PairingCode } from "./enroll.ts";
import type { AgentGrants } from "./grants.ts";
import { hostFacts, hostPlatform, interfacesOfHost, readinessOfHost } from "./host.ts";
import { DiscoveryScanner } from "./discovery/scanner.ts";
import { type AgentLog, silentLog } from "./log.ts";
import { AGENT_VERSION, buildHeartbeat, buildHello } from "./payloads.ts";
import { ProbeRunner } from "./probes/runner.ts";
import { RELEASE_PUBLIC_KEY } from "./release.ts";
import { refusalOf, Session, type SessionEnd } from "./session.ts";
import { Spool } from "./spool.ts";
import { AgentState, type ServerTrust } from "./state.ts";
import { HostSampler } from "./telemetry/sampler.ts";
import { TlsPins } from "./tls-pin.ts";
import { establishTrust, handshakeKeys, promoteIfSuccessor } from "./trust.ts";
import { pinnedFetch } from "./update/download.ts";
import { Updater } from "./update/updater.ts";

/** restart: swapped its executable for an update (or rolled one back); the service starts it again. */
export const EXIT = { stopped: 0, error: 1, usage: 2, revoked: 3, rejected: 4, restart: EXIT_RESTART } as const;

export type AgentEvent =
  | { type: "pairing_code"; code: PairingCode }
  | { type: "enrolled"; agent_id: number | null }
  | { type: "linked"; agent_id: number; connection: number }
  | { type: "link_lost"; code: number | null; reason: string }
  | { type: "telemetry"; sample_id: string }
  /** The server committed these spooled frames: their sample_id / run_id. */
  | { type: "acked"; ack_seq: number; sample_ids: string[]; run_ids: string[] }
  | { type: "grants"; grants: AgentGrants }
  | { type: "server_key_rotation"; successor_pk: string }
  | KeyEvent;

export interface AgentExit {
  code: (typeof EXIT)[keyof typeof EXIT];
  reason: keyof typeof EXIT;
  message: string;
}

export interface AgentOptions {
  /** http(s)://host[:port] of the control plane. */
  serverUrl: string;
  stateDir: string;
  /** 64 hex; else the stored key, else fetched from /install-agent.sh (trust on first use). */
  serverKey?: string;
  /** base64 SHA-256 of the server certificate's SubjectPublicKeyInfo (tls-pin.ts); https only. */
  tlsPin?: string;
  /** The hostname to report (default: this machine's). */
  name?: string;
  log?: AgentLog;
  spoolCapBytes?: number;
  heartbeatMs?: number;
  rekeyMs?: number;
  backoff?: BackoffOptions;
  /** "enroll": stop once enrolled (the installer's `enroll` step); "run" (default): link and stay. */
  mode?: "run" | "enroll";
  /** A telemetry interval in ms that overrides the grant's interval_s (tests). */
  telemetryIntervalMs?: number;
  onEvent?: (event: AgentEvent) => void;
  /** Seconds a new version on trial has to link before it rolls back (agent/update/updater.ts; default 120). */
  updateLinkDeadlineS?: number;
}

export const DEFAULT_SPOOL_CAP = 64 * 1024 * 1024;
/** A link that held this long was healthy: the next reconnect starts the backoff over. */
const HEALTHY_LINK_MS = 30_000;

export class Agent {
  readonly spool: Spool;
  readonly #o: AgentOptions;
  readonly #log: AgentLog;
  readonly #state: AgentState;
  readonly #keys: DeviceKeys;
  readonly #pins: TlsPins;
  readonly #hooks: KeyHooks;
  /** The device key of the connection being made or up. */
  #device: KeyPair;
  readonly #backoff: Backoff;
  readonly #runner: ProbeRunner;
  readonly #scanner: DiscoveryScanner;
  readonly #sampler = new HostSampler();
  readonly #updater: Updater;
  /** Set when an update (or a rollback) ends the run to start the agent again. */
  #restart: AgentExit | undefined;
  #trust: ServerTrust | undefined;
  #grants: AgentGrants | undefined;
  #session: Session | undefined;
  /** The socket up now (enrolling or linked): stop() closes it. */
  #conn: Connection | undefined;
  #telemetryTimer: NodeJS.Timeout | undefined;
  #telemetryMs: number | undefined;
  #stopped = false;
  #wake: (() => void) | undefined;

  constructor(options: AgentOptions) {
    this.#o = options;
    this.#log = options.log ?? silentLog;
    this.#state = new AgentState(options.stateDir);
    this.#keys = new DeviceKeys(this.#state);
    this.#device = this.#keys.candidates(new Date())[0]!;
    this.#pins = new TlsPins(this.#state, options.tlsPin, this.#log);
    this.#hooks = new KeyHooks({
      keys: this.#keys,
      pins: this.#pins,
      log: this.#log,
      emit: (e) => this.#emit(e),
      send: (type, payload) => this.#session?.sendLive(type, payload) ?? false,
      heartbeat: () => buildHeartbeat(this.spool.stats()),
      relink: () => {
        this.#backoff.reset();
        this.#conn?.close(1000, "device key rotation");
      },
    });
    this.#backoff = new Backoff(options.backoff);
    this.spool = new Spool(options.spoolCapBytes ?? DEFAULT_SPOOL_CAP);
    this.#runner = new ProbeRunner({ log: this.#log, report: (r) => this.#offer(this.spool.add("probe.result", r)) });
    this.#updater = new Updater({
      stateDir: options.stateDir,
      serverUrl: options.serverUrl,
      version: AGENT_VERSION,
      ...hostPlatform(),
      releaseKey: RELEASE_PUBLIC_KEY,
      execPath: process.execPath,
      linkDeadlineS: options.updateLinkDeadlineS,
      fetch: pinnedFetch(this.#pins),
      log: this.#log,
      restart: (message) => {
        // Stopped meanwhile: it stops as asked; the next start runs the new version all the same.
        if (this.#stopped) return;
        this.#restart = { code: EXIT.restart, reason: "restart", message };
        this.#halt("agent restarting to update");
      },
    });
    this.#scanner = new DiscoveryScanner({
      log: this.#log,
      send: (payload) => void this.#session?.sendLive("discovery.finding", payload),
      scope: () => ({
        networks: interfacesOfHost().networks,
        enabled: this.#grants?.discovery.enabled ?? false,
        config: this.#grants?.discovery.config ?? {},
      }),
    });
  }

  /** The device's public key, 64 hex. */
  get devicePublicKey(): string {
    return this.#keys.publicKey;
  }

  /** Starts a device key rotation on the live link (also what the server's request does); its successor's key. */
  rotateDeviceKey(): string {
    return this.#hooks.rotateDeviceKey();
  }

  /** Runs until stopped, revoked or rejected. */
  async run(): Promise<AgentExit> {
    if (this.#o.mode !== "enroll") this.#updater.start();
    try {
      while (!this.#stopped) {
        const exit = await this.#round().catch((e: unknown) => {
          this.#log.warn(`${(e as Error).message}`);
          return undefined;
        });
        if (exit) return exit;
        if (this.#stopped) break;
        const delay = this.#backoff.next();
        this.#log.info(`reconnecting in ${(delay / 1000).toFixed(1)} s`);
        await this.#sleep(delay);
      }
      return this.#restart ?? { code: EXIT.stopped, reason: "stopped", message: "stopped" };
    } finally {
      this.#updater.stop();
      this.#setTelemetry(undefined);
      this.#runner.cancelAll("agent stopping");
      this.#scanner.cancelAll("agent stopping");
    }
  }

  stop(): void {
    this.#halt("agent stopping");
  }

  #halt(reason: string): void {
    this.#stopped = true;
    this.#conn?.close(1000, reason);
    this.#wake?.();
  }

  /** One connection: an enrollment while not active, else a link. Answers an exit, or undefined to retry. */
  async #round(): Promise<AgentExit | undefined> {
    this.#trust ??= await establishTrust(this.#state, this.#o.serverUrl, this.#o.serverKey, this.#log, (url) => this.#pins.fetch(url));
    if (this.#trust.status === "revoked") return this.#exit("revoked", "this agent was revoked; it cannot link again");
    if (this.#trust.status === "rejected") return this.#exit("rejected", "this agent's enrollment was rejected");
    if (this.#trust.status !== "active") return this.#enroll();
    if (this.#o.mode === "enroll") return { code: EXIT.stopped, reason: "stopped", message: "enrolled" };
    return this.#link();
  }

  async #enroll(): Promise<AgentExit | undefined> {
    this.#keys.forgetSuccessor();
    this.#device = this.#keys.candidates(new Date())[0]!;
    const conn = await this.#open("enroll");
    const end = await enroll(conn, this.#hello(), this.#log, (code) => {
      this.#emit({ type: "pairing_code", code });
      this.#log.warn(`pairing code ${code.pairing_code}: approve it in the control plane (agent ${code.agent_id ?? "?"})`);
    });
    if (end.kind === "active") {
      this.#trust = this.#state.updateServer({ status: "active", agent_id: end.agentId ?? this.#trust!.agent_id });
      this.#emit({ type: "enrolled", agent_id: this.#trust.agent_id });
      this.#log.info("enrollment approved; linking");
      this.#backoff.reset();
      return this.#stopped ? undefined : this.#round();
    }
    if (end.kind === "lost") {
      this.#emit({ type: "link_lost", code: end.code, reason: end.reason });
      return undefined;
    }
    this.#trust = this.#state.updateServer({ status: end.kind });
    return this.#exit(end.kind, end.reason);
  }

  /** A link with each device key in turn while the server does not know it (device-key.ts). */
  async #link(): Promise<AgentExit | undefined> {
    const keys = this.#keys.candidates(new Date());
    for (const [i, device] of keys.entries()) {
      this.#device = device;
      const end = await this.#linkWith();
      if (end.kind !== "unknown" || i === keys.length - 1 || this.#stopped) return this.#ended(end);
      this.#hooks.onRefused(device);
    }
    return undefined;
  }

  async #linkWith(): Promise<SessionEnd> {
    let conn: Connection;
    try {
      conn = await this.#open("link");
    } catch (e) {
      // A device the server will not link may be refused right after handshake message 1.
      const refusal = e instanceof LinkClosed && e.code === 1008 ? refusalOf(e.reason) : undefined;
      if (refusal) return { kind: refusal, reason: (e as LinkClosed).reason };
      throw e;
    }
    const device = this.#device;
    const session = new Session(conn, {
      spool: this.spool,
      runner: this.#runner,
      discovery: this.#scanner,
      log: this.#log,
      heartbeatMs: this.#o.heartbeatMs,
      rekeyMs: this.#o.rekeyMs,
      hello: () => this.#hello(),
      onLinked: (agentId) => {
        if (this.#trust!.agent_id !== agentId) this.#trust = this.#state.updateServer({ agent_id: agentId });
        this.#log.info(`linked as agent ${agentId}`);
        this.#hooks.onLinked(device);
        this.#emit({ type: "linked", agent_id: agentId, connection: session.id });
        this.#updater.linked((status) => session.sendLive("update.status", status));
      },
      onUpdate: (offer) => this.#updater.offer(offer, (status) => session.sendLive("update.status", status)),
      onDeviceKeyRotate: (p) => this.#hooks.onDeviceKeyRotate(p),
      onTlsPinRotate: (p) => this.#hooks.onTlsPinRotate(p),
      onGrants: (grants) => this.#applyGrants(grants),
      onServerKeyRotation: (successor, expiry) => {
        this.#trust = this.#state.updateServer({ successor_pk: successor, successor_expiry: expiry });
        this.#log.info(`the server announced a key rotation: successor key stored (overlap until ${expiry ?? "unknown"})`);
        this.#emit({ type: "server_key_rotation", successor_pk: successor });
      },
      onAck: (ackSeq, entries) => {
        const ids = (type: string, key: string) => entries.filter((e) => e.type === type).map((e) => String(e.payload[key]));
        this.#emit({
          type: "acked",
          ack_seq: ackSeq,
          sample_ids: ids("telemetry.host", "sample_id"),
          run_ids: ids("probe.result", "run_id"),
        });
      },
    });
    this.#session = session;
    const end = await session.run();
    this.#session = undefined;
    // Findings go on the live link only: a scan without one is over (the server ends its job).
    this.#scanner.cancelAll("link lost");
    return end;
  }

  #ended(end: SessionEnd): AgentExit | undefined {
    if (end.kind === "lost") {
      // Not reset on every accepted link: a server that accepts and drops at once must not be hammered.
      if (end.heldMs >= HEALTHY_LINK_MS) this.#backoff.reset();
      this.#emit({ type: "link_lost", code: end.code, reason: end.reason });
      if (!this.#stopped) this.#log.warn(`link closed (${end.code}${end.reason ? ` ${end.reason}` : ""})`);
      return undefined;
    }
    if (end.kind === "unknown") {
      // The server no longer knows this device (its database was reset): enroll again.
      this.#log.warn(`the server does not know this agent (${end.reason}); enrolling again`);
      this.#trust = this.#state.updateServer({ status: null, agent_id: null });
      return undefined;
    }
    this.#trust = this.#state.updateServer({ status: end.kind });
    return this.#exit(end.kind, end.reason);
  }

  /** A connection to enroll or link, trying a rotated successor key before the current one. */
  async #open(path: "enroll" | "link"): Promise<Connection> {
    const url = new URL(`/api/v1/agents/${path}`, this.#o.serverUrl);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const keys = handshakeKeys(this.#trust!, new Date());
    for (const [i, key] of keys.entries()) {
      try {
        const conn = await Connection.open({
          url: url.toString(),
          device: this.#device,
          serverKey: hexToBytes(key),
          agent: this.#pins.httpsAgent(url.toString()),
        });
        this.#trust = promoteIfSuccessor(this.#state, this.#trust!, key);
        this.#conn = conn;
        if (this.#stopped) conn.close(1000, "agent stopping");
        return conn;
      } catch (e) {
        const failedKey = e instanceof LinkClosed && e.stage === "handshake" && e.code !== 1013;
        if (!failedKey || i === keys.length - 1) throw e;
        this.#log.warn(`handshake with the successor server key failed (${(e as Error).message}); trying the current key`);
      }
    }
    throw new Error("no server key to try");
  }

  #hello(): Record<string, unknown> {
    const facts = hostFacts(this.#o.name);
    const hello = buildHello({
      ...facts,
      device_pk: bytesToHex(this.#device.publicKey),
      readiness: readinessOfHost(),
      spool_depth: this.spool.depth,
    });
    return { ...hello, tls_pin_kind: this.#pins.kind(this.#o.serverUrl), tls_pins: this.#pins.pins() };
  }

  #applyGrants(grants: AgentGrants): void {
    this.#grants = grants;
    this.#runner.maxConcurrent = grants.probes.maxConcurrent;
    this.#setTelemetry(grants.telemetry.enabled ? (this.#o.telemetryIntervalMs ?? grants.telemetry.intervalS * 1000) : undefined);
    this.#emit({ type: "grants", grants });
  }

  /** (Re)starts the telemetry timer at `ms`, or stops it (undefined: the grant is disabled). */
  #setTelemetry(ms: number | undefined): void {
    if (ms === this.#telemetryMs && (ms === undefined || this.#telemetryTimer)) return;
    clearInterval(this.#telemetryTimer);
    this.#telemetryTimer = undefined;
    this.#telemetryMs = ms;
    if (ms === undefined) return;
    this.#sampleTelemetry();
    this.#telemetryTimer = setInterval(() => this.#sampleTelemetry(), ms);
  }

  #sampleTelemetry(): void {
    try {
      const payload = this.#sampler.sample(this.#grants?.telemetry.config ?? {});
      this.#offer(this.spool.add("telemetry.host", payload));
      this.#emit({ type: "telemetry", sample_id: payload.sample_id });
    } catch (e) {
      this.#log.warn(`telemetry sample failed: ${(e as Error).message}`);
    }
  }

  #offer(entry: ReturnType<Spool["add"]>): void {
    this.#session?.offer(entry);
  }

  #exit(reason: "revoked" | "rejected", message: string): AgentExit {
    this.#log.error(
      reason === "revoked" ? `this agent was revoked by the server: ${message}` : `this agent was rejected by the server: ${message}`,
    );
    return { code: EXIT[reason], reason, message };
  }

  #emit(event: AgentEvent): void {
    try {
      this.#o.onEvent?.(event);
    } catch (e) {
      this.#log.warn(`event handler failed: ${(e as Error).message}`);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }
}
