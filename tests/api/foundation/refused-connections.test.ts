// A database that refuses connections (issue 36 item 16): `ALTER DATABASE ... ALLOW_CONNECTIONS false`
// and its backends terminated, as an operator does before maintenance. The pool's connections die
// (57P01) and every reconnect is refused with SQLSTATE 55000; a write admitted on a health probe from
// before (HEALTH_CACHE_MS) and a login must answer 503 SERVICE_NOT_READY with Retry-After, never 500,
// and once connections are allowed again the app recovers by itself.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { PG_ADMIN_URL } from "../../helpers/env.ts";

let a: Actors;
let admin: postgres.Sql;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function allowConnections(allow: boolean): Promise<void> {
  await admin.unsafe(`alter database "${a.t.database.name}" allow_connections ${allow}`);
}

beforeAll(async () => {
  // Writes are admitted on a probe up to a minute old, so they reach the database and meet the refusal.
  a = await createActors({ HEALTH_CACHE_MS: "60000" });
  admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  if (a) await allowConnections(true).catch(() => {});
  await admin?.end({ timeout: 1 });
  await a?.t.close();
});

async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(await res.json()).toMatchObject({ error_code: "SERVICE_NOT_READY", detail: expect.any(String) });
}

describe("a database that refuses connections", () => {
  it("POST /hardware and POST /auth/jwt/login answer 503 with Retry-After; after it allows them again, 201", async () => {
    expect((await a.req("POST", "hardware", a.admin, { name: "before" })).status).toBe(201);
    await allowConnections(false);
    await a.t.sql.end({ timeout: 1 });
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${a.t.database.name} and pid <> pg_backend_pid()`;
    // Together, so both are admitted on the old probe and meet the refusal themselves.
    const [write, login] = await Promise.all([
      a.req("POST", "hardware", a.admin, { name: "refused" }),
      a.req("POST", "auth/jwt/login", undefined, { email: "editor@example.com", password: "editor password for tests" }),
    ]);
    await expectUnavailable(write);
    await expectUnavailable(login);
    // The outage was reported: the next write is refused by the admission guard before it reaches the pool.
    await expectUnavailable(await a.req("POST", "hardware", a.admin, { name: "refused too" }));

    await allowConnections(true);
    // The monitor re-probes by itself while the database is down; bounded in count and time.
    let res: Response | undefined;
    for (let i = 0, deadline = Date.now() + 10_000; i < 100 && Date.now() < deadline; i++) {
      res = await a.req("POST", "hardware", a.admin, { name: "after" });
      if (res.status !== 503) break;
      await sleep(100);
    }
    expect(res?.status).toBe(201);
  });
});
