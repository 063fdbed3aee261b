// Contract of shared/db/prepared.ts (preparedPerDb): the credential lookups are built once per database
// handle with drizzle's .prepare(name), because a drizzle prepared query keeps the client of the handle
// it was built on (on workerd a handle, and its client, lives for one request).
import { eq, sql as dsql } from "drizzle-orm";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../shared/db/database.ts";
import { preparedPerDb } from "../../shared/db/prepared.ts";
import { users } from "../../shared/db/schema/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { because, pgClient, preparedOn, productDb, type Workaround } from "./support.ts";

const W: Workaround = { name: "prepared-per-db", file: "shared/db/prepared.ts", libs: { "drizzle-orm": "0.45.4", postgres: "3.4.9" } };

const build = (db: Db) =>
  db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, dsql.placeholder("id")))
    .prepare("contract_user_email_by_id");

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("drizzle's prepared queries, as preparedPerDb expects them", () => {
  it("a drizzle prepared query keeps the client of the handle it was built on (it fails once that client has ended)", async () => {
    const first = pgClient(database.url);
    const query = build(productDb(first));
    await query.execute({ id: 1 });
    await first.end({ timeout: 1 });
    await expect(
      query.execute({ id: 1 }),
      because(W, "a prepared query is bound to its handle's client, so it is cached per handle"),
    ).rejects.toMatchObject({
      cause: { code: "CONNECTION_ENDED" },
    });
  });
});

describe("preparedPerDb's effect", () => {
  let a: postgres.Sql;
  let b: postgres.Sql;
  beforeAll(() => {
    a = pgClient(database.url);
    b = pgClient(database.url);
  });
  afterAll(async () => {
    await Promise.all([a.end({ timeout: 1 }), b.end({ timeout: 1 })]);
  });

  it("builds a query once per handle, and each handle's query runs prepared on that handle's own connection", async () => {
    const lookup = preparedPerDb(build);
    const dbA = productDb(a);
    const dbB = productDb(b);
    expect(lookup(dbA)).toBe(lookup(dbA));
    expect(lookup(dbB)).not.toBe(lookup(dbA));
    await lookup(dbB).execute({ id: 1 });
    expect(
      (await preparedOn(b)).map((s) => s.statement),
      because(W, "the per-handle query runs as a prepared statement on its own connection"),
    ).toEqual([expect.stringContaining(`select "email" from "users"`)]);
    expect(await preparedOn(a)).toEqual([]);
  });
});
