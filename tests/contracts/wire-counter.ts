// A loopback relay in front of PostgreSQL that counts the frontend messages clients send, by type
// (P = Parse, H = Flush, B = Bind, E = Execute, S = Sync, Q = simple Query, ...). postgres.js sends a
// Flush exactly when it must wait for the server's parameter description before it can bind: each H is
// one extra round trip, and each P one more parse (and plan) in PostgreSQL. That makes the round trips
// the prepared-statement proxy saves countable without timing anything.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface WireCounter {
  port: number;
  /** Messages sent by clients since the relay started, by type letter. */
  counts(): Record<string, number>;
  close(): Promise<void>;
}

/** Splits one client's byte stream into messages; the first (startup) message has no type byte. */
function messageReader(count: (type: string) => void): (chunk: Buffer) => void {
  let buf = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (!started) {
        if (buf.length < 4) return;
        const len = buf.readUInt32BE(0);
        if (buf.length < len) return;
        buf = buf.subarray(len);
        started = true;
        continue;
      }
      if (buf.length < 5) return;
      const len = buf.readUInt32BE(1);
      if (buf.length < 1 + len) return;
      count(String.fromCharCode(buf[0]!));
      buf = buf.subarray(1 + len);
    }
  };
}

export async function startWireCounter(target: { host: string; port: number }): Promise<WireCounter> {
  const totals: Record<string, number> = {};
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target);
    const read = messageReader((t) => void (totals[t] = (totals[t] ?? 0) + 1));
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.on("data", (chunk: Buffer) => {
      read(chunk);
      upstream.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  return {
    port: typeof addr === "object" && addr ? addr.port : 0,
    counts: () => ({ ...totals }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Messages of each type sent while `run` ran (the difference of two snapshots). */
export async function messagesDuring(counter: WireCounter, run: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = counter.counts();
  await run();
  const after = counter.counts();
  const out: Record<string, number> = {};
  for (const [t, n] of Object.entries(after)) if (n - (before[t] ?? 0) > 0) out[t] = n - (before[t] ?? 0);
  return out;
}
