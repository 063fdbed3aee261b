// One end of a linked agent connection after the Noise handshake: frames in and out over the two
// transport ciphers, with the envelope's sequence rules and the Noise rekey. Sending `transport.rekey`
// rekeys our sending cipher right after that frame; receiving one rekeys our receiving cipher right
// after it, so both ends switch at the same message (spec/catalogue.tsv, group agents: every 15 minutes per
// direction, payload {direction: "outbound", generation}).
import type { Transport } from "../noise/index.ts";
import { decodeFrame, encodeFrame, type Frame, FrameError } from "./frames.ts";

export const REKEY_INTERVAL_MS = 15 * 60_000;

export class FrameChannel<In extends string, Out extends string> {
  readonly #transport: Transport;
  readonly #accepts: readonly In[];
  #nextSeq = 0;
  #lastSeq = -1;
  #generation = 0;

  constructor(transport: Transport, accepts: readonly In[]) {
    this.#transport = transport;
    this.#accepts = accepts;
  }

  /** The sequence number the next frame we send will carry. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** The transport message carrying one frame. Throws FrameError("too_large") before using a nonce. */
  seal(type: Out | "transport.rekey", payload: Record<string, unknown>, now: Date = new Date()): Uint8Array {
    const plaintext = encodeFrame(type, this.#nextSeq, now, payload);
    const message = this.#transport.send.encrypt(plaintext);
    this.#nextSeq++;
    return message;
  }

  /** A `transport.rekey` frame; our sending cipher rekeys right after it. */
  sealRekey(now: Date = new Date()): Uint8Array {
    this.#generation++;
    const message = this.seal("transport.rekey", { direction: "outbound", generation: this.#generation }, now);
    this.#transport.send.rekey();
    return message;
  }

  /**
   * The frame in one transport message. Throws NoiseError (a message that does not decrypt: the link
   * must close) or FrameError (malformed, unknown type, or a seq not above the last one).
   */
  open(message: Uint8Array): Frame<In | "transport.rekey"> {
    const plaintext = this.#transport.receive.decrypt(message);
    const frame = decodeFrame<In | "transport.rekey">(plaintext, [...this.#accepts, "transport.rekey"]);
    if (frame.seq <= this.#lastSeq) throw new FrameError("bad_seq", `seq ${frame.seq} does not follow ${this.#lastSeq}`);
    this.#lastSeq = frame.seq;
    if (frame.type === "transport.rekey") this.#transport.receive.rekey();
    return frame;
  }
}
