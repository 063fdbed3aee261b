// Plain TCP for the line-based check types (ssh, smtp): a connection through the monitor policy's lookup
// that the check's abort signal destroys, and a reader of its lines bounded by size (a peer that sends
// an endless line or endless lines fails the check, it does not fill memory) and by the signal in time.
import { type LookupFunction, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { elapsed, reasonOf } from "./result.ts";

/** Connects to host:port; the socket, and the connect time in ms. Rejects with the reason (reasonOf). */
export function connectPlain(
  host: string,
  port: number,
  signal: AbortSignal,
  lookup: LookupFunction | undefined,
): Promise<{ socket: Socket; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const socket = new Socket();
    const onAbort = () => {
      socket.destroy();
      reject(new Error("timeout"));
    };
    if (signal.aborted) return reject(new Error("timeout"));
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => {
      socket.removeAllListeners("error");
      resolve({ socket, ms: elapsed(start) });
    });
    socket.once("error", (e) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(new Error(reasonOf(e)));
    });
    socket.connect({ host, port, ...(lookup ? { lookup } : {}) });
  });
}

/** Reads lines (CRLF or LF) from a stream, at most `maxBytes` in all; ends with a reason on close, error or abort. */
export class LineReader {
  #buffer = "";
  #total = 0;
  #ended: string | null = null;
  #wake: (() => void) | null = null;
  readonly #stream: Duplex;
  readonly #onData = (chunk: Buffer) => {
    this.#total += chunk.length;
    if (this.#total > this.maxBytes) return this.#end(`the server sent more than ${this.maxBytes} bytes`);
    this.#buffer += chunk.toString("latin1");
    this.#notify();
  };
  readonly #onClose = () => this.#end("the server closed the connection");
  readonly #onError = (e: Error) => this.#end(reasonOf(e));
  readonly #onAbort = () => this.#end("timeout");

  readonly signal: AbortSignal;
  readonly maxBytes: number;

  constructor(stream: Duplex, signal: AbortSignal, maxBytes = 64 * 1024) {
    this.#stream = stream;
    this.signal = signal;
    this.maxBytes = maxBytes;
    stream.on("data", this.#onData);
    stream.on("close", this.#onClose);
    stream.on("end", this.#onClose);
    stream.on("error", this.#onError);
    if (signal.aborted) this.#ended = "timeout";
    else signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  #notify() {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  #end(reason: string) {
    this.#ended ??= reason;
    this.#stream.destroy();
    this.#notify();
  }

  /** The next line (without its line end); throws an Error naming why there is none. */
  async line(): Promise<string> {
    for (;;) {
      const at = this.#buffer.indexOf("\n");
      if (at >= 0) {
        const line = this.#buffer.slice(0, at).replace(/\r$/, "");
        this.#buffer = this.#buffer.slice(at + 1);
        return line;
      }
      if (this.#ended !== null) throw new Error(this.#ended);
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Stops reading (before the stream is handed to TLS); the stream itself stays open. */
  detach() {
    this.#stream.off("data", this.#onData);
    this.#stream.off("close", this.#onClose);
    this.#stream.off("end", this.#onClose);
    this.#stream.off("error", this.#onError);
    this.signal.removeEventListener("abort", this.#onAbort);
  }

  /** Stops reading and closes the stream. */
  close() {
    this.detach();
    this.#stream.destroy();
  }
}
