// Contract of the prepared-statement proxy (shared/db/preparing-client.ts). drizzle's postgres-js driver
// asks postgres.js for an unprepared statement unless the query was named, and postgres.js then
// describes the parameters in a round trip of its own before binding, on every execution. The proxy
// turns prepare on for statements up to 128 parameters / 16 kB, inside transactions too. If drizzle
// starts preparing by itself, or postgres.js stops honouring `prepare`, or drizzle stops running
// transactions through `begin`/`savepoint` callbacks, these tests say which.
import { eq, inArray, sql as dsql } from "drizzle-orm";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../shared/db/database.ts";
import { users } from "../../shared/db/schema/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { because, pgClient, plainDb, preparedOn, productDb, type Workaround } from "./support.ts";
import { messagesDuring, startWireCounter, type WireCounter } from "./wire-counter.ts";

const W: Workaround = {
  name: "preparing-client",
  file: "shared/db/preparing-client.ts",
  libs: { "drizzle-orm": "0.45.4", postgres: "3.4.9" },
};

interface UnsafeCall {
  query: string;
  options: { prepare?: boolean } | undefined;
  /** Which client drizzle called: the pool, or the one postgres.js handed to begin()/savepoint(). */
  via: string;
}

/** A spy between drizzle and postgres.js: records what drizzle asks of `unsafe`, follows begin/savepoint. */
function spy(client: object, calls: UnsafeCall[], via = "pool"): object {
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      const fn = value as (...a: unknown[]) => unknown;
      if (prop === "unsafe")
        return (query: string, params?: unknown[], options?: { prepare?: boolean }) => {
          calls.push({ query, options, via });
          return fn.call(target, query, params, options);
        };
      if (prop === "begin" || prop === "savepoint")
        return (...args: unknown[]) => {
          const body = args.pop() as (inner: object) => unknown;
          return fn.call(target, ...args, (inner: object) => body(spy(inner, calls, String(prop))));
        };
      return fn.bind(target);
    },
  });
}

const userById = (db: Db, id: number) => db.select({ id: users.id }).from(users).where(eq(users.id, id));

let database: TestDatabase;
let counter: WireCounter;
const clients: postgres.Sql[] = [];

/** A one-connection client through the counting relay, so pg_prepared_statements and counts are its own. */
function client(): postgres.Sql {
  const url = new URL(database.url);
  url.port = String(counter.port);
  const sql = pgClient(url.toString());
  clients.push(sql);
  return sql;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const url = new URL(database.url);
  counter = await startWireCounter({ host: url.hostname, port: Number(url.port || 5432) });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end({ timeout: 1 })));
  await counter.close();
  await database.drop();
});

describe("drizzle-orm's postgres-js driver, as the proxy expects it", () => {
  it("drizzle's postgres-js session passes prepare:false to postgres.js for a statement it was not asked to name", async () => {
    const calls: UnsafeCall[] = [];
    const sql = client();
    const db = plainDb(spy(sql, calls) as postgres.Sql);
    await userById(db, 1);
    await db.execute(dsql`select ${1}::int as one`);
    expect(
      calls.map((c) => c.options),
      because(W, "drizzle asks postgres.js for prepare:false on unnamed statements (else the proxy is moot)"),
    ).toEqual([{ prepare: false }, { prepare: false }]);
  });

  it("drizzle passes prepare:true for a query named with .prepare(name) (what shared/db/prepared.ts builds)", async () => {
    const calls: UnsafeCall[] = [];
    const db = plainDb(spy(client(), calls) as postgres.Sql);
    await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, dsql.placeholder("id")))
      .prepare("contract_user_by_id")
      .execute({ id: 1 });
    expect(
      calls.map((c) => c.options),
      because(W, "a named drizzle query reaches postgres.js with prepare:true"),
    ).toEqual([{ prepare: true }]);
  });

  it("drizzle runs a transaction through client.begin(fn) and a nested one through savepoint(fn), on the clients postgres.js hands over", async () => {
    const calls: UnsafeCall[] = [];
    const db = plainDb(spy(client(), calls) as postgres.Sql);
    await db.transaction(async (tx) => {
      await userById(tx as unknown as Db, 1);
      await tx.transaction(async (inner) => void (await userById(inner as unknown as Db, 2)));
    });
    const selects = calls.filter((c) => c.query.startsWith("select"));
    expect(
      selects.map((c) => c.via),
      because(W, "drizzle's transactions run on the client given to begin()/savepoint() callbacks, which the proxy wraps"),
    ).toEqual(["begin", "savepoint"]);
  });
});

describe("postgres.js, as the proxy expects it", () => {
  const text = "select id from users where id = $1";

  it("postgres.js's unsafe() with prepare:false describes the parameters in an extra round trip and parses again on every run", async () => {
    const sql = client();
    await sql.unsafe(text, [0], { prepare: false });
    const sent = await messagesDuring(counter, async () => {
      for (let i = 1; i <= 3; i++) await sql.unsafe(text, [i], { prepare: false });
    });
    expect(
      sent,
      because(W, "postgres.js sends Parse + Flush (a describe round trip) before every unprepared parameterised statement"),
    ).toMatchObject({ P: 3, H: 3, B: 3 });
    expect(await preparedOn(sql)).toEqual([]);
  });

  it("postgres.js's unsafe() with prepare:true keeps the statement on the connection and runs it again in one round trip", async () => {
    const sql = client();
    await sql.unsafe(text, [0], { prepare: true });
    const sent = await messagesDuring(counter, async () => {
      for (let i = 1; i <= 3; i++) await sql.unsafe(text, [i], { prepare: true });
    });
    expect(sent.P ?? 0, because(W, "postgres.js does not parse a statement it has prepared on this connection again")).toBe(0);
    expect(sent.H ?? 0, because(W, "postgres.js binds a prepared statement without a describe round trip")).toBe(0);
    expect(sent.B).toBe(3);
    expect((await preparedOn(sql)).map((s) => s.statement)).toEqual([text]);
  });
});

describe("the proxy's effect", () => {
  it("a drizzle statement through the proxy is prepared on its connection (pg_prepared_statements)", async () => {
    const sql = client();
    await userById(productDb(sql), 1);
    const prepared = (await preparedOn(sql)).map((s) => s.statement);
    expect(prepared, because(W, "the proxy makes postgres.js prepare drizzle's statements")).toEqual([
      expect.stringMatching(/^select "id" from "users" where "users"\."id" = \$1/),
    ]);
  });

  it("after its first run a statement goes in one round trip without being parsed again; without the proxy every run pays both", async () => {
    const withProxy = productDb(client());
    const without = plainDb(client());
    await userById(withProxy, 0);
    await userById(without, 0);
    const run = (db: Db) =>
      messagesDuring(counter, async () => {
        for (let i = 1; i <= 3; i++) await userById(db, i);
      });
    const proxied = await run(withProxy);
    const plain = await run(without);
    expect(
      { parses: proxied.P ?? 0, describeRoundTrips: proxied.H ?? 0 },
      because(W, "statements through the proxy skip Parse and the describe round trip once prepared"),
    ).toEqual({
      parses: 0,
      describeRoundTrips: 0,
    });
    expect(
      { parses: plain.P ?? 0, describeRoundTrips: plain.H ?? 0 },
      because(W, "without the proxy drizzle's statements are parsed and described on every run (the cost the proxy removes)"),
    ).toEqual({
      parses: 3,
      describeRoundTrips: 3,
    });
  });

  it("statements inside drizzle transactions and savepoints are prepared too", async () => {
    const sql = client();
    const db = productDb(sql);
    await db.transaction(async (tx) => {
      await tx.select({ email: users.email }).from(users).where(eq(users.id, 1));
      await tx.transaction(async (inner) => void (await inner.select({ role: users.role }).from(users).where(eq(users.id, 2))));
    });
    const prepared = (await preparedOn(sql)).map((s) => s.statement);
    expect(prepared, because(W, "the proxy reaches the clients of begin()/savepoint()")).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`select "email" from "users"`),
        expect.stringContaining(`select "role" from "users"`),
      ]),
    );
  });

  it("a statement of more than 128 parameters stays unprepared; one of 128 is prepared", async () => {
    const sql = client();
    const db = productDb(sql);
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    await db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, ids(129)));
    expect(await preparedOn(sql), because(W, "bulk statements keep postgres.js's unprepared path")).toEqual([]);
    await db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, ids(128)));
    expect(await preparedOn(sql)).toHaveLength(1);
  });
});
