// A small raw agent for the sidecar tests: it speaks the link protocol byte by byte (Noise IK initiator,
// FrameChannel frames) and can break every rule on purpose (garbage bytes, text, oversize, replayed
// seq, stale ts). The reference agent (agent/) is the well-behaved peer; this one is the bad input.
import WebSocket from "ws";
import { FrameChannel } from "../../../shared/agents/frame-channel.ts";
import { FRAME_VERSION, type Frame, SERVER_FRAME_TYPES, type ServerFrameType } from "../../../shared/agents/frames.ts";
import { bytesToHex, hexToBytes } from "../../../shared/auth/encoding.ts";
import { generateKeyPair, initiator, type KeyPair, type SendCipher } from "../../../shared/noise/index.ts";

export interface Closed {
  code: number;
  reason: string;
}

export class RawAgent {
  readonly ws: WebSocket;
  readonly key: KeyPair;
  readonly frames: Frame<ServerFrameType>[] = [];
  readonly closed: Promise<Closed>;
  readonly opened: Promise<void>;
  channel: FrameChannel<ServerFrameType, string> | undefined;
  #handshakeReply: ((m: Uint8Array) => void) | undefined;
  #waiters: (() => void)[] = [];
  #taken = 0;
  /** The seq our next frame carries (we set seq ourselves to break the rules). */
  seq = 0;
  /** Called with every server frame as it arrives (a peer that answers them). */
  onFrame: ((frame: Frame<ServerFrameType>) => void) | undefined;

  constructor(url: string, key: KeyPair = generateKeyPair()) {
    this.key = key;
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.ws.on("error", () => {});
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("close", () => reject(new Error("closed before open")));
    });
    this.opened.catch(() => {});
    this.closed = new Promise((resolve) => this.ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on("message", (data: Buffer) => {
      const bytes = new Uint8Array(data);
      if (this.#handshakeReply) {
        const r = this.#handshakeReply;
        this.#handshakeReply = undefined;
        return r(bytes);
      }
      if (!this.channel) return;
      const frame = this.channel.open(bytes) as Frame<ServerFrameType>;
      this.frames.push(frame);
      this.onFrame?.(frame);
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  get devicePk(): string {
    return bytesToHex(this.key.publicKey);
  }

  /** Noise IK with the server's static key; then frames flow. */
  async handshake(serverPkHex: string): Promise<void> {
    await this.opened;
    const hs = initiator({ s: this.key.secretKey, rs: hexToBytes(serverPkHex)! });
    const reply = new Promise<Uint8Array>((resolve) => (this.#handshakeReply = resolve));
    this.ws.send(hs.writeMessage());
    hs.readMessage(await reply);
    const transport = hs.split();
    this.#send = transport.send;
    this.channel = new FrameChannel(transport, SERVER_FRAME_TYPES);
  }

  /** A frame with our own seq and ts (defaults: the next seq, now). */
  frame(type: string, payload: Record<string, unknown>, opts: { seq?: number; ts?: Date } = {}): void {
    const seq = opts.seq ?? this.seq;
    this.seq = seq + 1;
    const json = JSON.stringify({ v: FRAME_VERSION, type, seq, ts: (opts.ts ?? new Date()).toISOString(), payload });
    // Sealed with the sending cipher directly: FrameChannel.seal would number the frame itself.
    this.ws.send(this.#send!.encrypt(new TextEncoder().encode(json)));
  }

  #send: SendCipher | undefined;

  hello(extra: Record<string, unknown> = {}, ts?: Date): void {
    this.frame("hello", helloPayload(this.devicePk, extra), ts ? { ts } : {});
  }

  /** The next server frame of `type` not yet taken. */
  next(type: ServerFrameType, timeoutMs = 5000): Promise<Frame<ServerFrameType>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${type} within ${timeoutMs} ms; got ${JSON.stringify(this.frames.map((f) => f.type))}`)),
        timeoutMs,
      );
      const look = () => {
        for (let i = this.#taken; i < this.frames.length; i++)
          if (this.frames[i]!.type === type) {
            this.#taken = i + 1;
            clearTimeout(timer);
            return resolve(this.frames[i]!);
          }
        this.#waiters.push(look);
      };
      look();
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

export function helloPayload(devicePk: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    device_pk: devicePk,
    hostname: "raw-agent",
    machine_id_hash: null,
    os: "linux",
    os_version: "6.1",
    arch: "amd64",
    agent_version: "1.0.0",
    primary_macs: ["aa:bb:cc:dd:ee:ff"],
    readiness: [],
    networks: [],
    spool_depth: 0,
    capability_schema: 2,
    ...extra,
  };
}
