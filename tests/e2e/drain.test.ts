// SIGTERM drain, end to end (spec 3.2, 7.3, 7.4): `npm start` on PostgreSQL; a write is held in flight by
// a table lock the test takes; on SIGTERM the process turns to stopping (readyz 503, new writes 503
// SERVER_DRAINING, startupz still 200), lets the held write finish and commit once the lock goes, and
// exits 0 with the row stored.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, until, waitForLockWaiter, holdTableLock } from "./helpers.ts";

let database: TestDatabase;
let sql: postgres.Sql;
let p: Product;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 3, onnotice: () => {} });
  p = await startProduct({ DATABASE_URL: database.url });
}, 90_000);

afterAll(async () => {
  await killAll();
  await sql?.end({ timeout: 1 });
  await database?.drop();
});

async function expectDraining(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(await res.json()).toMatchObject({ error_code: "SERVER_DRAINING", health: "stopping" });
}

describe("SIGTERM drain", () => {
  it("refuses new writes, finishes the write in flight, then exits 0", async () => {
    const email = "drain-admin@example.test";
    const password = "correct horse battery staple";

    // Hold the users table so the product's write blocks inside its transaction.
    const release = await holdTableLock(sql, "users", "access exclusive");
    try {
      // Settles to the response or to the transport error (a drain that closes the connection before
      // the response is written shows up here as "other side closed").
      const inFlight: Promise<{ status: number; body: Record<string, unknown> } | { error: string }> = p
        .fetch("/api/v1/bootstrap/initialize", {
          ...jsonBody({ email, password, display_name: "Drain Admin", setup_token: SETUP_TOKEN }),
          signal: AbortSignal.timeout(60_000),
        })
        .then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }))
        .catch((e: Error) => ({ error: `${e.message}: ${String((e.cause as Error | undefined)?.message ?? "")}` }));

      await waitForLockWaiter(sql, database.name, p.output);

      const stopped = p.stop("SIGTERM", 60_000);
      stopped.catch(() => {});

      // The signal is asynchronous: wait until readiness reports stopping.
      const ready = await until(
        "readyz to report stopping",
        async () => {
          const res = await p.fetch("/api/v1/readyz");
          return res.status === 503 ? res : (await res.body?.cancel(), undefined);
        },
        15_000,
        p.output,
      );
      expect(await ready.json()).toMatchObject({ ready: false, state: "stopping", health: "stopping", writes_permitted: false });

      await expectDraining(await p.fetch("/api/v1/tenants", { method: "POST" }));
      await expectDraining(
        await p.fetch("/api/v1/bootstrap/initialize", jsonBody({ email: "late@example.test", password, setup_token: SETUP_TOKEN })),
      );

      const startup = await p.fetch("/api/v1/startupz");
      expect(startup.status).toBe(200);
      expect(await startup.json()).toEqual({ started: true, state: "stopping" });
      expect((await p.fetch("/api/v1/livez")).status).toBe(200);

      // Still draining: the process waits for the write in flight.
      const early = await Promise.race([p.exited, new Promise((r) => setTimeout(() => r("running"), 200))]);
      expect(early, p.output()).toBe("running");

      await release();

      // Soft assertions: when one fails the others still say whether the write committed and how the
      // process exited.
      const write = await inFlight;
      expect.soft(write, "the write in flight gets its response").not.toHaveProperty("error");
      if (!("error" in write)) {
        expect.soft(write.status, JSON.stringify(write.body)).toBe(200);
        expect.soft(write.body).toMatchObject({ user: { email } });
        expect.soft(typeof write.body.token).toBe("string");
        expect.soft(typeof write.body.csrf_token).toBe("string");
      }

      expect.soft(await stopped, p.output()).toBe(0);

      const rows = await sql<{ email: string }[]>`select email from users where lower(email) = lower(${email})`;
      expect.soft(rows, "the admin written in flight is stored").toHaveLength(1);
      const late = await sql`select 1 from users where lower(email) = 'late@example.test'`;
      expect.soft(late, "the write refused while draining is not").toHaveLength(0);
    } finally {
      await release().catch(() => {});
    }
  }, 120_000);
});
