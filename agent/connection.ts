// One WebSocket to the server carrying the Noise link: the IK handshake (message 1 from us with an empty
// payload, message 2 back), then one FrameChannel transport message per binary WebSocket message. What
// the server sends before the handshake completes, or a close, ends open() with a LinkClosed that says
// whether the handshake got through (so the caller can tell "this server key failed" from the rest).
import type { Agent as HttpsAgent } from "node:https";
import WebSocket from "ws";
import { FrameChannel } from "../shared/agents/frame-channel.ts";
import { type AgentFrameType, type Frame, SERVER_FRAME_TYPES, type ServerFrameType } from "../shared/agents/frames.ts";
import { nodeX25519 } from "../net/node-x25519.ts";
import { initiator, type KeyPair, MAX_MESSAGE } from "../shared/noise/index.ts";

export type ServerFrame = Frame<ServerFrameType | "transport.rekey">;

export interface Closed {
  code: number;
  reason: string;
}

/** The socket ended before the link was up. `handshake`: message 2 never came or did not decrypt. */
export class LinkClosed extends Error {
  override name = "LinkClosed";
  readonly stage: "connect" | "handshake";
  readonly code: number | null;
  readonly reason: string;
  constructor(stage: LinkClosed["stage"], code: number | null, reason: string) {
    super(code === null ? `${stage} failed: ${reason}` : `${stage}: the server closed ${code}${reason ? ` (${reason})` : ""}`);
    this.stage = stage;
    this.code = code;
    this.reason = reason;
  }
}

export interface OpenOptions {
  /** ws(s)://host/api/v1/agents/{enroll|link} */
  url: string;
  device: KeyPair;
  serverKey: Uint8Array;
  timeoutMs?: number;
  /** The source address to connect from (the benchmark spreads a fleet over loopback addresses). */
  localAddress?: string;
  /** wss: the agent that checks the server's TLS pin (tls-pin.ts). */
  agent?: HttpsAgent | undefined;
}

export class Connection {
  readonly #ws: WebSocket;
  readonly #channel: FrameChannel<ServerFrameType, AgentFrameType>;
  readonly closed: Promise<Closed>;
  #handler: ((frame: ServerFrame) => void) | undefined;
  #pending: ServerFrame[] = [];
  #isClosed = false;

  private constructor(ws: WebSocket, channel: FrameChannel<ServerFrameType, AgentFrameType>, first: Buffer[]) {
    this.#ws = ws;
    this.#channel = channel;
    this.closed = new Promise((resolve) => {
      ws.once("close", (code, reason) => {
        this.#isClosed = true;
        resolve({ code, reason: reason.toString() });
      });
    });
    ws.on("message", (data, isBinary) => this.#receive(data as Buffer, isBinary));
    for (const data of first) this.#receive(data, true);
  }

  static open({ url, device, serverKey, timeoutMs = 10_000, localAddress, agent }: OpenOptions): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, {
        maxPayload: MAX_MESSAGE,
        handshakeTimeout: timeoutMs,
        perMessageDeflate: false,
        ...(localAddress ? { localAddress } : {}),
        ...(agent ? { agent } : {}),
      });
      const noise = initiator({ s: device.secretKey, rs: serverKey, x25519: nodeX25519 });
      let stage: LinkClosed["stage"] = "connect";
      const early: Buffer[] = [];
      let channel: FrameChannel<ServerFrameType, AgentFrameType> | undefined;
      const timer = setTimeout(() => fail(new LinkClosed(stage, null, `no answer within ${timeoutMs} ms`)), timeoutMs);
      const fail = (err: LinkClosed) => {
        clearTimeout(timer);
        ws.removeAllListeners("message");
        ws.on("error", () => {});
        ws.terminate();
        reject(err);
      };
      ws.on("error", (e) => fail(new LinkClosed(stage, null, e.message)));
      ws.on("close", (code, reason) => fail(new LinkClosed(stage, code, reason.toString())));
      ws.once("open", () => {
        stage = "handshake";
        ws.send(noise.writeMessage());
      });
      ws.on("message", (data, isBinary) => {
        if (channel) {
          early.push(data as Buffer);
          return;
        }
        try {
          if (!isBinary) throw new Error("a text message");
          noise.readMessage(new Uint8Array(data as Buffer));
          channel = new FrameChannel<ServerFrameType, AgentFrameType>(noise.split(), SERVER_FRAME_TYPES);
        } catch (e) {
          fail(new LinkClosed("handshake", null, `handshake message 2 refused: ${(e as Error).message}`));
          return;
        }
        // The rest arrives through the Connection; hand over once the current event is done.
        queueMicrotask(() => {
          clearTimeout(timer);
          ws.removeAllListeners("message");
          ws.removeAllListeners("close");
          ws.removeAllListeners("error");
          ws.on("error", () => {});
          resolve(new Connection(ws, channel!, early));
        });
      });
    });
  }

  /** The frames from the server, in order; those that came before this was set are delivered now. */
  onFrame(handler: (frame: ServerFrame) => void): void {
    this.#handler = handler;
    const pending = this.#pending;
    this.#pending = [];
    for (const f of pending) handler(f);
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Sends one frame; answers its seq, or undefined when the socket is gone. */
  send(type: AgentFrameType, payload: Record<string, unknown>, ts: Date = new Date()): number | undefined {
    if (this.#isClosed || this.#ws.readyState !== WebSocket.OPEN) return undefined;
    const seq = this.#channel.nextSeq;
    this.#ws.send(this.#channel.seal(type, payload, ts));
    return seq;
  }

  /** transport.rekey: our sending direction switches keys after this frame. */
  rekey(): void {
    if (this.#isClosed || this.#ws.readyState !== WebSocket.OPEN) return;
    this.#ws.send(this.#channel.sealRekey());
  }

  close(code = 1000, reason = ""): void {
    if (this.#isClosed) return;
    this.#ws.close(code, reason);
    // A peer that never answers the close frame must not hold us.
    setTimeout(() => this.#ws.terminate(), 2000).unref();
  }

  #receive(data: Buffer, isBinary: boolean): void {
    if (this.#isClosed) return;
    let frame: ServerFrame;
    try {
      if (!isBinary) throw new Error("a text message on the link");
      frame = this.#channel.open(new Uint8Array(data));
    } catch (e) {
      this.close(1008, `malformed frame: ${(e as Error).message}`.slice(0, 120));
      return;
    }
    if (this.#handler === undefined) this.#pending.push(frame);
    else this.#handler(frame);
  }
}
