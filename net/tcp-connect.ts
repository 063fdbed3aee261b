// TCP connect with a timeout and an AbortSignal: the primitive of the discovery sweep (and of the
// banner, TLS and HTTP grabs). Whatever happens (timeout, abort, error) the socket is destroyed unless
// it is handed to the caller open.
import { Socket } from "node:net";

export interface ConnectOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Why a connect failed: a system error code (ECONNREFUSED, EHOSTUNREACH, ...), ETIMEDOUT, or ABORTED. */
export class ConnectError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** Connects and resolves with the open socket (the caller must destroy it), or rejects with a ConnectError. */
export function connectSocket(host: string, port: number, options: ConnectOptions): Promise<Socket> {
  const { signal } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ConnectError("ABORTED", "aborted"));
    const socket = new Socket();
    const fail = (code: string, message: string) => {
      cleanup();
      socket.destroy();
      reject(new ConnectError(code, message));
    };
    const onAbort = () => fail("ABORTED", "aborted");
    const timer = setTimeout(() => fail("ETIMEDOUT", `no answer from ${host}:${port} in ${options.timeoutMs} ms`), options.timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket.removeAllListeners("connect");
      socket.removeAllListeners("error");
      // A later error on a socket handed out must not crash the process before its owner listens.
      socket.on("error", () => {});
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => {
      cleanup();
      resolve(socket);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => fail(e.code ?? "ERROR", e.message));
    socket.connect({ host, port });
  });
}

export type PortState = "open" | "closed" | "timeout" | "unreachable" | "aborted";

export interface ProbeResult {
  state: PortState;
  /** Time to the answer (open or refused), else null. */
  ms: number | null;
  code: string | null;
}

/**
 * One connect attempt: `open` (connected), `closed` (refused: the host is up), `timeout`, `unreachable`
 * (no route / host down reported by the stack) or `aborted`.
 */
export async function tcpProbe(host: string, port: number, options: ConnectOptions): Promise<ProbeResult> {
  const start = performance.now();
  const ms = () => Math.round((performance.now() - start) * 100) / 100;
  try {
    const socket = await connectSocket(host, port, options);
    socket.destroy();
    return { state: "open", ms: ms(), code: null };
  } catch (e) {
    const code = e instanceof ConnectError ? e.code : "ERROR";
    if (code === "ECONNREFUSED") return { state: "closed", ms: ms(), code };
    if (code === "ETIMEDOUT") return { state: "timeout", ms: null, code };
    if (code === "ABORTED") return { state: "aborted", ms: null, code };
    return { state: "unreachable", ms: null, code };
  }
}
