// Small helpers of the rate-limit tests: a clock the test drives, a logger that keeps its lines, a
// port nobody listens on, and a relay that can make a real Redis hang.
import { connect, createServer, type Server, type Socket } from "node:net";
import type { Clock } from "../../../shared/clock.ts";
import type { Logger } from "../../../shared/logger.ts";
export { freePort as closedPort } from "../../helpers/free-port.ts";

export function drivenClock(startMs: number): Clock & { set(ms: number): void; advance(ms: number): void } {
  let now = startMs;
  return { now: () => new Date(now), set: (ms) => void (now = ms), advance: (ms) => void (now += ms) };
}

export interface LogLine {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

export function capturingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (msg: string, fields: Record<string, unknown> = {}) =>
      void lines.push({ level, msg, fields });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/**
 * A TCP relay to a real server that can stall: while stalled, what the client sends is dropped, so the
 * connection stays open and nothing ever answers (a hung Redis, as opposed to a refused connection).
 */
export async function stallableRelay(target: { host?: string; port: number }): Promise<{
  port: number /** Bytes the clients have sent so far, stalled or not. */;
  readonly received: number;
  stall(): void;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let stalled = false;
  let received = 0;
  const server: Server = createServer((client) => {
    const upstream = connect({ host: target.host ?? "127.0.0.1", port: target.port });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (!stalled) upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  return {
    port: typeof addr === "object" && addr ? addr.port : 0,
    get received() {
      return received;
    },
    stall: () => void (stalled = true),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A random documentation-range IPv4 address, so runs against the one shared Redis never collide. */
export function randomClientIp(): string {
  const b = () => Math.floor(Math.random() * 256);
  return `198.18.${b()}.${b()}`;
}

/**
 * Waits out the end of a minute when less than `marginMs` of it is left: a sliding window weighs the
 * previous minute with floor(), so a burst straddling the boundary may see one extra slot.
 */
export async function clearOfMinuteBoundary(marginMs = 5000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}
