// The agent link's frames (docs/architecture.md, how an agent frame flows; spec/catalogue.tsv, group agents): JSON
// `{v: 1, type, seq, ts, payload}`, one frame per Noise transport message, one transport message per
// binary WebSocket message. A Noise message holds at most 65535 bytes, so a frame's JSON holds at most
// 65519: the sender keeps its frames under that (the reference agent trims telemetry lists to fit); a
// larger message is malformed input (close 1008), never reassembled. Both ends, the sidecar and the
// reference agent, use this file, so what one writes the other reads.
import { MAX_MESSAGE } from "../noise/index.ts";
import { TAGLEN } from "../noise/primitives.ts";

export const FRAME_VERSION = 1;
/** The largest frame plaintext one Noise transport message carries. */
export const MAX_FRAME_BYTES = MAX_MESSAGE - TAGLEN;

export const AGENT_FRAME_TYPES = [
  "hello",
  "heartbeat",
  "telemetry.host",
  "probe.result",
  "discovery.finding",
  "capability.readiness",
  "capability.violation",
  "update.status",
  "log",
  "uninstall",
  "key.rotate",
  "transport.rekey",
] as const;
export type AgentFrameType = (typeof AGENT_FRAME_TYPES)[number];

export const SERVER_FRAME_TYPES = [
  "hello.ack",
  "capabilities.set",
  "probe.assign",
  "probe.cancel",
  "discovery.request",
  "discovery.cancel",
  "key.rotate",
  "tls.pin.rotate",
  "update",
  "disconnect",
  "ping",
  "transport.rekey",
] as const;
export type ServerFrameType = (typeof SERVER_FRAME_TYPES)[number];

export interface Frame<T extends string = string> {
  v: typeof FRAME_VERSION;
  type: T;
  /** Per connection and direction, strictly increasing from 0. */
  seq: number;
  /** ISO-8601 with `T` (the Go agent's time.Time). */
  ts: string;
  payload: Record<string, unknown>;
}

export class FrameError extends Error {
  override name = "FrameError";
  readonly reason: "too_large" | "malformed" | "unknown_type" | "bad_seq";
  constructor(reason: FrameError["reason"], message: string) {
    super(message);
    this.reason = reason;
  }
}

const ISO_WITH_T = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export function encodeFrame(type: string, seq: number, ts: Date, payload: Record<string, unknown>): Uint8Array {
  const bytes = new TextEncoder().encode(JSON.stringify({ v: FRAME_VERSION, type, seq, ts: ts.toISOString(), payload }));
  if (bytes.length > MAX_FRAME_BYTES)
    throw new FrameError("too_large", `a ${type} frame of ${bytes.length} bytes exceeds the ${MAX_FRAME_BYTES}-byte cap`);
  return bytes;
}

/** Parses and checks the envelope; `types` is what this end accepts. Throws FrameError. */
export function decodeFrame<T extends string>(bytes: Uint8Array, types: readonly T[]): Frame<T> {
  if (bytes.length > MAX_FRAME_BYTES)
    throw new FrameError("too_large", `a frame has at most ${MAX_FRAME_BYTES} bytes, not ${bytes.length}`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new FrameError("malformed", "a frame is one JSON object in UTF-8");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new FrameError("malformed", "a frame is a JSON object");
  const f = value as Record<string, unknown>;
  if (f.v !== FRAME_VERSION) throw new FrameError("malformed", `frame version ${String(f.v)} is not ${FRAME_VERSION}`);
  if (typeof f.type !== "string") throw new FrameError("malformed", "a frame names its type");
  if (!(types as readonly string[]).includes(f.type))
    throw new FrameError("unknown_type", `unknown frame type ${JSON.stringify(f.type.slice(0, 64))}`);
  if (typeof f.seq !== "number" || !Number.isSafeInteger(f.seq) || f.seq < 0)
    throw new FrameError("malformed", "seq is a non-negative integer");
  if (typeof f.ts !== "string" || !ISO_WITH_T.test(f.ts) || Number.isNaN(Date.parse(f.ts)))
    throw new FrameError("malformed", "ts is an ISO-8601 date-time");
  const payload = f.payload ?? {};
  if (typeof payload !== "object" || payload === null || Array.isArray(payload))
    throw new FrameError("malformed", "payload is a JSON object");
  return { v: FRAME_VERSION, type: f.type as T, seq: f.seq, ts: f.ts, payload: payload as Record<string, unknown> };
}
