// No N+1: the number of SQL statements a list request runs does not grow with the page size.
import type { Context } from "hono";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, sharedAccess } from "../../../shared/db/database.ts";
import * as schema from "../../../shared/db/schema/index.ts";
import { createActors, type Actors } from "../../helpers/actors.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

let a: Actors;
let counted: TestApp;
let statements = 0;
let counter: postgres.Sql;

beforeAll(async () => {
  a = await createActors();
  const s = a.t.sql;
  await s`insert into environments (name) values ('prod')`;
  await s`insert into hardware (name, environment_id, tags) select 'hw-' || i, 1, array['t'] from generate_series(1, 120) i`;
  await s`insert into compute_units (name, kind, hardware_id) select 'cu-' || i, 'vm', 1 + i % 120 from generate_series(1, 120) i`;
  await s`insert into services (name, slug, compute_id, environment_id) select 'svc-' || i, 'svc-' || i, 1 + i % 120, 1 from generate_series(1, 120) i`;
  // A second app on the same database whose pool counts every statement it sends.
  counter = postgres(a.t.database.url, { max: 4, onnotice: () => {}, debug: () => void statements++ });
  const db = drizzle(counter, { schema }) as unknown as Db;
  // Credentials looked up on every request (no cache), so each request's count is complete and the same.
  counted = await createTestApp(
    { CREDENTIAL_CACHE_S: "0" },
    { database: sharedAccess("postgres", db, async () => {}), peerAddress: (c: Context) => c.req.header("x-test-peer") },
  );
});
afterAll(async () => {
  await counter.end();
  await counted.close();
  await a.t.close();
});

async function statementsFor(path: string): Promise<number> {
  const before = statements;
  const res = await counted.app.request(path, {
    headers: { authorization: `Bearer ${a.viewer}`, "x-test-peer": `10.77.0.${1 + (statements % 200)}` },
  });
  expect(res.status, path).toBe(200);
  return statements - before;
}

describe("statements per list request", () => {
  it.each(["hardware", "compute-units", "services"])("/%s: the same for 5 rows and 100 rows", async (resource) => {
    await statementsFor(`/api/v1/${resource}?limit=1`); // warm caches (signing key, profile)
    const small = await statementsFor(`/api/v1/${resource}?limit=5`);
    const large = await statementsFor(`/api/v1/${resource}?limit=100`);
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(8);
  });
});
