// SIGTERM drain under keep-alive load (spec 3.2, 7.3): `npm start` on PostgreSQL; 8 clients, each on its
// own keep-alive agent and its own client address (X-Forwarded-For from a trusted proxy, so each has
// its own rate-limit buckets), keep reading and writing while the signal arrives. A write held in flight
// by a lock the test takes keeps the drain open until every client has been told to go away. Every
// request the server read gets a whole answer: 200/201 before, 503 SERVER_DRAINING (or a read's 200)
// after, every answer given while draining with Connection: close.
//
// One reset is allowed by HTTP itself (RFC 9112 9.3.1, 9.6): a request written on a keep-alive socket at
// the instant the drain closes it as idle. The server never read it, and the client retries it on a new
// socket, as Node's docs prescribe for `request.reusedSocket`. The test checks that such a request was
// never processed (its write is not stored) and that its retry was answered by the draining server.
import { Agent, request } from "node:http";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, until, waitForLockWaiter, holdTableLock } from "./helpers.ts";

const CLIENTS = 8;
const MAX_REQUESTS_PER_CLIENT = 400;
const CLIENT_DEADLINE_MS = 45_000;

interface Answer {
  status: number;
  connection: string | undefined;
  body: Record<string, unknown>;
}
type Failure = { method: string; error: string; reusedSocket: boolean };
type Outcome = { method: string; answer: Answer } | Failure;
/** A request reset on a reused socket before any answer, the name it would have written, and its retry. */
interface Reset {
  client: number;
  failure: Failure;
  name?: string;
  retry: Outcome;
}

let database: TestDatabase;
let sql: postgres.Sql;
let p: Product;
let token = "";

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 3, onnotice: () => {} });
  p = await startProduct({ DATABASE_URL: database.url, TRUSTED_PROXIES: "127.0.0.1" });
  const init = await p.fetch(
    "/api/v1/bootstrap/initialize",
    jsonBody({ email: "keepalive-admin@example.test", password: "correct horse battery staple", setup_token: SETUP_TOKEN }),
  );
  expect(init.status, p.output()).toBe(200);
  token = ((await init.json()) as { token: string }).token;
}, 90_000);

afterAll(async () => {
  await killAll();
  await sql?.end({ timeout: 1 });
  await database?.drop();
});

/** One request on `agent`; settles to the whole answer or to the transport error. */
function send(agent: Agent, client: number, method: "GET" | "POST", path: string, body?: unknown): Promise<Outcome> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port: p.port,
        method,
        path,
        timeout: 20_000,
        headers: {
          authorization: `Bearer ${token}`,
          "x-forwarded-for": `10.0.0.${client + 1}`,
          ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { unparsed: text.slice(0, 200) };
          }
          resolve({ method, answer: { status: res.statusCode ?? 0, connection: res.headers.connection, body: parsed } });
        });
        res.on("error", (e) => resolve({ method, error: `response: ${e.message}`, reusedSocket: req.reusedSocket }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer within 20 s")));
    req.on("error", (e: NodeJS.ErrnoException) =>
      resolve({ method, error: `${e.code ?? ""} ${e.message}`, reusedSocket: req.reusedSocket }),
    );
    req.end(payload);
  });
}

const isDraining = (o: Outcome) => "answer" in o && o.answer.status === 503 && o.answer.body.error_code === "SERVER_DRAINING";

/**
 * Alternates a read and a write until the server says it is draining (the client then goes elsewhere,
 * as Retry-After asks), a request fails, or its bounds run out. A request reset on a reused socket
 * before any answer is retried once on a new socket.
 */
async function client(n: number, outcomes: Outcome[], resets: Reset[], progress: number[]): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const deadline = Date.now() + CLIENT_DEADLINE_MS;
  try {
    for (let i = 0; i < MAX_REQUESTS_PER_CLIENT && Date.now() < deadline; i++) {
      const name = `ka-${n}-${i}`;
      const once = () =>
        i % 2 === 0 ? send(agent, n, "GET", "/api/v1/hardware?limit=5") : send(agent, n, "POST", "/api/v1/hardware", { name });
      let o = await once();
      if ("error" in o && o.reusedSocket) {
        const failure = o;
        o = await once();
        resets.push({ client: n, failure, retry: o, ...(failure.method === "POST" ? { name } : {}) });
      }
      outcomes.push(o);
      progress[n]!++;
      if ("error" in o || isDraining(o)) return;
    }
  } finally {
    agent.destroy();
  }
}

describe("SIGTERM drain with keep-alive clients", () => {
  it("answers every request sent on a keep-alive socket, the 503s with Connection: close, then exits 0", async () => {
    // SHARE blocks inserts into networks only: the clients' reads and writes (hardware) run freely.
    const release = await holdTableLock(sql, "networks", "share");
    try {
      const held = send(new Agent({ keepAlive: false }), 100, "POST", "/api/v1/networks", { name: "held-during-drain" });
      await waitForLockWaiter(sql, database.name, p.output);

      const outcomes: Outcome[][] = Array.from({ length: CLIENTS }, () => []);
      const resets: Reset[] = [];
      const progress = Array.from({ length: CLIENTS }, () => 0);
      const clients = Promise.all(outcomes.map((list, n) => client(n, list, resets, progress)));

      // Every client is busy (a few answers each, keep-alive sockets in use) when the signal arrives.
      await until("every client to be under way", () => progress.every((c) => c >= 4) || undefined, 20_000, p.output);
      const stopped = p.stop("SIGTERM", 60_000);
      stopped.catch(() => {});
      await clients;

      const all = outcomes.flat();
      const failures = all.filter((o) => "error" in o);
      expect(failures, "requests that got no answer").toEqual([]);
      for (const o of all) {
        if (!("answer" in o)) continue;
        const { status, body } = o.answer;
        const ok = (o.method === "GET" && status === 200) || (o.method === "POST" && status === 201) || isDraining(o);
        expect(ok, `${o.method} answered ${status} ${JSON.stringify(body)}`).toBe(true);
      }
      const draining = all.filter(isDraining);
      expect(draining, "every client was told the server is draining").toHaveLength(CLIENTS);
      for (const o of draining) expect("answer" in o && o.answer.connection).toBe("close");
      // Once a client has seen Connection: close (the drain began), every later answer says it too.
      for (const list of outcomes) {
        const first = list.findIndex((o) => "answer" in o && o.answer.connection === "close");
        const later = list.slice(Math.max(first, 0)).map((o) => ("answer" in o ? o.answer.connection : "none"));
        expect(
          later.every((c) => c === "close"),
          JSON.stringify(later),
        ).toBe(true);
      }
      // The reset HTTP allows: only as the drain began (the retry met a draining server), never read.
      for (let n = 0; n < CLIENTS; n++)
        expect(resets.filter((r) => r.client === n).length, "at most one reset per client").toBeLessThanOrEqual(1);
      for (const r of resets) expect(r.retry, `retry of ${JSON.stringify(r.failure)}`).toMatchObject({ answer: { connection: "close" } });
      const resetNames = resets.flatMap((r) => (r.name ? [r.name] : []));
      if (resetNames.length > 0)
        expect(await sql`select name from hardware where name in ${sql(resetNames)}`, "a reset write was never processed").toEqual([]);
      // Before the signal the sockets were reused: the clients were really on keep-alive.
      expect(all.filter((o) => "answer" in o && o.answer.connection === "keep-alive").length).toBeGreaterThan(0);

      await release();
      const write = await held;
      expect.soft(write, "the held write gets its answer").toMatchObject({ answer: { status: 201 } });
      expect.soft(await stopped, p.output()).toBe(0);
      const stored = await sql`select 1 from networks where name = 'held-during-drain'`;
      expect.soft(stored, "the write in flight committed").toHaveLength(1);
    } finally {
      await release().catch(() => {});
    }
  }, 120_000);
});
