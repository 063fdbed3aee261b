// Contract of answeredSockets() (runtime/database.ts): postgres.js 3.4.9, when a server accepts a
// connection and closes it cleanly before answering (a TCP proxy or pooler with no database behind
// it), keeps the waiting query as the connection's `initial` and reconnects at once, forever: the query
// never settles and the process spins (porsager/postgres#1193). Our sockets turn that clean close into
// a connection error, which the driver settles the query with. Also pinned: while the server is gone,
// each failed attempt settles exactly one queued query (what CONNECT_TIMING's short backoff relies on).
import { createServer, type Server } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answeredSockets } from "../../runtime/database.ts";
import { because, type Workaround } from "./support.ts";

// biome-ignore lint/complexity/noBannedTypes: postgres.js's own type for "no custom types"
type NoCustomTypes = {};

const W: Workaround = { name: "answered-sockets", file: "runtime/database.ts", libs: { postgres: "3.4.9" } };

let server: Server;
let accepted = 0;
let url: string;

beforeAll(async () => {
  // Reads what it is sent and answers nothing: it only hangs up.
  server = createServer((socket) => {
    accepted++;
    socket.resume().end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `postgres://postgres@127.0.0.1:${(server.address() as { port: number }).port}/none`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The query's error code, or "pending" when it has not settled within `ms`. */
function outcome(q: Promise<unknown>, ms: number): Promise<string> {
  const late = new Promise<string>((r) => setTimeout(() => r("pending"), ms));
  return Promise.race([
    q.then(
      () => "answered",
      (e: { code?: string }) => e.code ?? String(e),
    ),
    late,
  ]);
}

describe("a server that hangs up before answering", () => {
  it("the bare driver keeps the query waiting and reconnects without pause", async () => {
    const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    const before = accepted;
    try {
      expect(
        await outcome(sql`select 1`, 500),
        because(W, "postgres.js still never settles such a query (porsager/postgres#1193); if it settles now, drop answeredSockets()"),
      ).toBe("pending");
      expect(accepted - before, because(W, "postgres.js still reconnects with no delay meanwhile")).toBeGreaterThan(20);
    } finally {
      await sql.end({ timeout: 0 });
    }
  });

  it("with answeredSockets() the query settles with ECONNRESET, one attempt each", async () => {
    const sql = postgres(url, {
      max: 1,
      connect_timeout: 2,
      backoff: () => 0,
      onnotice: () => {},
      socket: answeredSockets(),
    } as postgres.Options<NoCustomTypes>);
    await new Promise((r) => setTimeout(r, 100)); // the previous case's last reconnect, if any, lands first
    const before = accepted;
    try {
      const codes = await Promise.all(Array.from({ length: 5 }, () => outcome(sql`select 1`, 2000)));
      expect(codes, because(W, "a clean close before any byte is an error postgres.js settles the waiting query with")).toEqual(
        Array(5).fill("ECONNRESET"),
      );
      expect(accepted - before, because(W, "each failed attempt settles exactly one queued query")).toBe(5);
    } finally {
      await sql.end({ timeout: 0 });
    }
  });
});
