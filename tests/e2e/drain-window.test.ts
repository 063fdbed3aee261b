// The drain window (DRAIN_WINDOW_S): after SIGTERM the server keeps its listener open for the window,
// so a client a load balancer still sends here, on a NEW connection, always gets an answer, never a
// reset or a refused connection: a write 503 SERVER_DRAINING in the error envelope, a read its answer,
// both with Connection: close. The write in flight when the signal came completes and commits, and the
// process exits 0 at the end of the window. Before the window, the listener closed as soon as the last
// request in flight finished, and connections opened then were cut.
import { Agent, request } from "node:http";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { holdTableLock, killAll, type Product, SETUP_TOKEN, startProduct, until, waitForLockWaiter } from "./helpers.ts";

// Long enough for the few dozen loopback requests below even on a loaded machine.
const WINDOW_S = 15;
const ROUNDS = 6;
const PER_ROUND = 5;

let database: TestDatabase;
let sql: postgres.Sql;
let p: Product;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 3, onnotice: () => {} });
  p = await startProduct({ DATABASE_URL: database.url, DRAIN_WINDOW_S: String(WINDOW_S), DRAIN_TIMEOUT_S: "40" });
}, 90_000);

afterAll(async () => {
  await killAll();
  await sql?.end({ timeout: 1 });
  await database?.drop();
});

type Outcome = { status: number; connection: string | undefined; body: Record<string, unknown> } | { error: string };

/** One request on a connection of its own (no agent reuse); settles to the whole answer or the transport error. */
function onNewConnection(method: "GET" | "POST", path: string, body?: unknown): Promise<Outcome> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(
      {
        agent: new Agent({ keepAlive: false }),
        host: "127.0.0.1",
        port: p.port,
        method,
        path,
        timeout: 20_000,
        headers: payload === undefined ? {} : { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) },
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
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: parsed });
        });
        res.on("error", (e) => resolve({ error: `response: ${e.message}` }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer within 20 s")));
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: `${e.code ?? ""} ${e.message}` }));
    req.end(payload);
  });
}

describe("SIGTERM drain window", () => {
  it("answers every new connection during the window (writes 503 SERVER_DRAINING, Connection: close), completes the write in flight, exits 0", async () => {
    const email = "window-admin@example.test";
    const password = "correct horse battery staple";
    const release = await holdTableLock(sql, "users", "access exclusive");
    try {
      const inFlight = onNewConnection("POST", "/api/v1/bootstrap/initialize", {
        email,
        password,
        display_name: "Window Admin",
        setup_token: SETUP_TOKEN,
      });
      await waitForLockWaiter(sql, database.name, p.output);

      const stopped = p.stop("SIGTERM", 90_000);
      stopped.catch(() => {});
      await until(
        "readyz to report stopping",
        async () => {
          const o = await onNewConnection("GET", "/api/v1/readyz");
          return "status" in o && o.status === 503 ? o : undefined;
        },
        15_000,
        p.output,
      );

      // The last request in flight finishes: the moment the listener used to close.
      await release();
      const write = await inFlight;
      expect(write, "the write in flight gets its answer").toMatchObject({ status: 200, connection: "close", body: { user: { email } } });

      // New connections keep arriving, as from a load balancer that has not noticed yet: in bursts, as it would.
      const outcomes: { what: string; outcome: Outcome }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const burst = await Promise.all([
          ...Array.from({ length: PER_ROUND }, (_, i) =>
            onNewConnection("POST", "/api/v1/tenants", { name: `late-${round}-${i}` }).then((outcome) => ({ what: "write", outcome })),
          ),
          onNewConnection("GET", "/api/v1/livez").then((outcome) => ({ what: "read", outcome })),
        ]);
        outcomes.push(...burst);
      }
      for (const { what, outcome } of outcomes) {
        expect(outcome, `${what} on a new connection during the window`).not.toHaveProperty("error");
        if ("error" in outcome) continue;
        expect(outcome.connection).toBe("close");
        if (what === "read") expect(outcome.status).toBe(200);
        else {
          expect(outcome.status).toBe(503);
          expect(outcome.body).toMatchObject({ error_code: "SERVER_DRAINING", health: "stopping" });
        }
      }

      expect(await stopped, p.output()).toBe(0);
      expect(p.output()).not.toMatch(/"drained":false/);
      const rows = await sql`select 1 from users where lower(email) = lower(${email})`;
      expect(rows, "the write in flight committed").toHaveLength(1);
    } finally {
      await release().catch(() => {});
    }
  }, 120_000);
});
