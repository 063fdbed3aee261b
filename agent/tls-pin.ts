// TLS pinning of the server (docs/agents.md, TLS pinning; docs/adr/0428). When the server URL is https
// and the agent holds a pin (the config's `tls_pin` or --tls-pin, base64 SHA-256 of the leaf's
// SubjectPublicKeyInfo), every TLS connection it makes to the server, the link's WebSocket and its HTTPS
// requests alike, is checked against its pins before a byte of HTTP is written: a mismatch closes the
// connection with a log line naming both pins. `tls.pin.rotate` adds a successor pin, accepted beside
// the current one until its expiry and alone after it. What it holds is in tls-pins.json (0600, atomic
// writes), tied to the configured pin: a different configured pin starts over from it.
import { Agent as HttpsAgent, type AgentOptions, request } from "node:https";
import { Readable } from "node:stream";
import { connect, type ConnectionOptions, type TLSSocket } from "node:tls";
import { X509Certificate } from "node:crypto";
import type { Duplex } from "node:stream";
import { isTlsPin, spkiPin, TLS_PIN_MODES, type TlsPinMode } from "../shared/agents/tls-pin.ts";
import type { AgentLog } from "./log.ts";
import type { AgentState } from "./state.ts";

const FILE = "tls-pins.json";

interface Pin {
  pin: string;
  mode: TlsPinMode;
}

interface PinFile {
  /** The configured pin these pins started from (null: none configured). */
  config_pin: string | null;
  /** null: no pin in force, the certificate must chain to a CA the system trusts. */
  current: Pin | null;
  successor: (Pin & { expiry: string }) | null;
}

/** The pin of a certificate (DER) as the server's leaf presents it. */
export function certificatePin(der: Buffer): string {
  const spki = new X509Certificate(der).publicKey.export({ type: "spki", format: "der" });
  return spkiPin(new Uint8Array(spki));
}

export class TlsPinMismatch extends Error {
  override name = "TlsPinMismatch";
}

export class TlsPins {
  readonly #state: AgentState;
  readonly #log: AgentLog;
  #file: PinFile;
  #agent: HttpsAgent | undefined;

  /** `configPin`: the configured pin (checked by the CLI), or undefined. */
  constructor(state: AgentState, configPin: string | undefined, log: AgentLog) {
    if (configPin !== undefined && !isTlsPin(configPin)) throw new Error("the TLS pin is a base64 SHA-256 (44 characters ending in =)");
    this.#state = state;
    this.#log = log;
    const stored = state.readJson<PinFile>(FILE);
    const config_pin = configPin ?? null;
    this.#file =
      stored && stored.config_pin === config_pin
        ? stored
        : { config_pin, current: configPin ? { pin: configPin, mode: "self_signed" } : null, successor: null };
    if (!stored || stored.config_pin !== config_pin) this.#save();
  }

  /** The pins held, current first. */
  pins(now = new Date()): string[] {
    this.#settle(now);
    return [this.#file.current?.pin, this.#file.successor?.pin].filter((p): p is string => p !== undefined);
  }

  /** hello's tls_pin_kind: the current pin's mode, or none (trusting public CAs); null over plain http. */
  kind(serverUrl: string): string | null {
    if (!serverUrl.startsWith("https:")) return null;
    this.#settle(new Date());
    return this.#file.current?.mode ?? "none";
  }

  /** Whether a certificate with this pin, CA-verified or not (`authorized`), is the server's. */
  accepts(pin: string, authorized: boolean, now = new Date()): boolean {
    this.#settle(now);
    const { current, successor } = this.#file;
    const matches = (p: Pin | null) => p !== null && p.pin === pin && (p.mode === "self_signed" || authorized);
    return matches(successor) || (current === null ? authorized : matches(current));
  }

  /** A tls.pin.rotate payload: its successor kept beside the current pin; false when malformed or already held. */
  adopt(p: Record<string, unknown>, now = new Date()): boolean {
    const mode = p.mode as TlsPinMode;
    if (!isTlsPin(p.successor_pin) || !TLS_PIN_MODES.includes(mode)) return false;
    if (typeof p.expiry !== "string" || !(Date.parse(p.expiry) > now.getTime())) return false;
    if (this.pins(now).includes(p.successor_pin) && this.#file.successor?.expiry === p.expiry) return false;
    this.#file = { ...this.#file, successor: { pin: p.successor_pin, mode, expiry: new Date(p.expiry).toISOString() } };
    this.#save();
    return true;
  }

  /** The https.Agent every connection to the server goes through (undefined for http: nothing to pin). */
  httpsAgent(url: string): HttpsAgent | undefined {
    if (!/^(https|wss):/.test(url)) return undefined;
    this.#agent ??= new PinnedAgent(this, this.#log);
    return this.#agent;
  }

  /** GET over the pinned connection (http URLs as plain fetch does), answered as a fetch Response. */
  async fetch(url: string | URL, timeoutMs = 10_000): Promise<Response> {
    const target = new URL(url);
    if (target.protocol !== "https:") return fetch(target, { signal: AbortSignal.timeout(timeoutMs) });
    return new Promise((resolve, reject) => {
      const req = request(target, { agent: this.httpsAgent(target.href), timeout: timeoutMs }, (res) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
        const body = res.statusCode === 204 || res.statusCode === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status: res.statusCode ?? 500, headers }));
      });
      req.once("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.once("error", reject);
      req.end();
    });
  }

  /** Past its expiry a successor is the only pin (the server presents its certificate by then). */
  #settle(now: Date): void {
    const s = this.#file.successor;
    if (!s || Date.parse(s.expiry) > now.getTime()) return;
    this.#file = { ...this.#file, current: { pin: s.pin, mode: s.mode }, successor: null };
    this.#save();
    this.#log.info(`TLS pin rotation over: the server is now pinned to ${s.pin} only`);
  }

  #save(): void {
    this.#state.writeJson(FILE, this.#file);
  }
}

type CreateCallback = (err: Error | null, socket?: Duplex) => void;

/**
 * Hands a TLS socket to HTTP (or the WebSocket upgrade) only once the leaf's pin was checked: CA
 * verification is left to the pins (a self_signed pin needs none), so rejectUnauthorized is off and
 * `authorized` says whether the chain and name verified.
 */
class PinnedAgent extends HttpsAgent {
  readonly #pins: TlsPins;
  readonly #log: AgentLog;

  constructor(pins: TlsPins, log: AgentLog, options: AgentOptions = {}) {
    super(options);
    this.#pins = pins;
    this.#log = log;
  }

  override createConnection(options: ConnectionOptions, callback: CreateCallback): undefined {
    const socket: TLSSocket = connect({ ...options, rejectUnauthorized: false });
    const fail = (e: Error) => {
      socket.destroy();
      callback(e);
    };
    socket.once("error", fail);
    socket.once("secureConnect", () => {
      socket.removeListener("error", fail);
      const cert = socket.getPeerCertificate();
      const pin = cert?.raw ? certificatePin(cert.raw) : "(no certificate)";
      if (cert?.raw && this.#pins.accepts(pin, socket.authorized)) return callback(null, socket);
      const held = this.#pins.pins().join(", ") || "none: a publicly trusted certificate";
      const why = socket.authorized ? "" : ` (not CA-verified: ${socket.authorizationError})`;
      const message = `TLS pin mismatch: ${options.host}:${options.port} presented pin ${pin}${why}; this agent accepts ${held}. Connection refused.`;
      this.#log.error(message);
      fail(new TlsPinMismatch(message));
    });
    return undefined;
  }
}
