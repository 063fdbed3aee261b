// Contract of the row decoder (shared/db/table-rows.ts, used by every list page through
// shared/verbs/resources/list.ts). It renders drizzle's select list once, runs it with db.execute(),
// and decodes the driver's row objects itself, visiting only columns whose class overrides drizzle's
// base decoder. That is only right while drizzle's select() would have produced the same rows: the
// base decoder is the identity, execute() sees the same driver-level parsing as select(), and the
// rendered select list carries no parameters and lists the columns in getTableColumns order.
//
// The effect is checked over every table of the schema, on both client set-ups we run (the Node pool,
// which fetches array types, and the edge client, which does not): each table is shadowed by a
// temporary table of the same shape (no constraints) holding sample values of every column type.
import { Column, getTableColumns, is, sql as dsql } from "drizzle-orm";
import { PgliteSession } from "drizzle-orm/pglite";
import { PgDialect, PgTable, pgTable, QueryBuilder, text } from "drizzle-orm/pg-core";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../shared/db/schema/index.ts";
import { selectAllFrom, tableRows } from "../../shared/db/table-rows.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { because, pgClient, productDb, type Workaround } from "./support.ts";

const W: Workaround = { name: "table-rows", file: "shared/db/table-rows.ts", libs: { "drizzle-orm": "0.45.4", postgres: "3.4.9" } };

/**
 * Properties named unlike their columns: no schema table has one today; the decoder supports them, but
 * moves such a property to the end of the row (drizzle keeps column order), so only values are compared.
 */
const renamed = pgTable("contract_renamed_columns", { camelCase: text("snake_case"), id: text("id"), stamps: text("stamp_list").array() });

const tables: PgTable[] = [...Object.values(schema as Record<string, unknown>).filter((v): v is PgTable => is(v, PgTable)), renamed];
const tableName = (t: PgTable) => (t as unknown as Record<symbol, string>)[Symbol.for("drizzle:Name")]!;

/** Two SQL literals per column type of the schema: the edge cases of each type's decoder. */
const SAMPLES: Record<string, [string, string]> = {
  serial: ["7", "2147483647"],
  integer: ["-42", "2147483647"],
  bigserial: ["9007199254740991", "1"],
  bigint: ["9007199254740991", "-1"],
  "timestamp with time zone": ["'2026-11-03 10:20:30.123456+00'", "'1999-12-31 23:59:59+05:30'"],
  real: ["1.5", "-0.1"],
  "double precision": ["0.1", "1e300"],
  text: [`'quotes '' " and ünïcode'`, "''"],
  jsonb: [`'{"a":[1,"x",null],"b":{"c":true}}'`, `'"scalar"'`],
  "text[]": [`'{a,"b c","d,e","q\\"uote",NULL}'`, "'{}'"],
  boolean: ["true", "false"],
  bytea: ["'\\x00ff10'", "''"],
  date: ["'2026-11-03'", "'1999-12-31'"],
  "integer[]": ["'{1,-2,NULL}'", "'{}'"],
  cidr: ["'10.0.0.0/8'", "'2001:db8::/32'"],
};

function rowsSql(t: PgTable): string {
  const cols = Object.values(getTableColumns(t));
  const row = (pick: (c: Column) => string) => `(${cols.map(pick).join(", ")})`;
  const sample = (c: Column, i: 0 | 1) => SAMPLES[c.getSQLType()]![i];
  const values = [row((c) => sample(c, 0)), row((c) => (c.notNull ? sample(c, 1) : "null")), row((c) => sample(c, 1))];
  return `insert into "${tableName(t)}" (${cols.map((c) => `"${c.name}"`).join(", ")}) values ${values.join(", ")}`;
}

/** Shadows `t` with a temporary table of the same columns (unqualified names resolve to pg_temp first). */
function shadowSql(t: PgTable): string {
  const name = tableName(t);
  if (t === renamed) return `create temp table "${name}" (snake_case text, id text, stamp_list text[])`;
  return `create temp table "${name}" (like public."${name}" including defaults)`;
}

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("drizzle-orm, as the row decoder expects it", () => {
  it("drizzle's base Column.mapFromDriverValue is the identity (the decoder skips columns that inherit it)", () => {
    const value = { any: "value" };
    expect(
      Column.prototype.mapFromDriverValue(value),
      because(W, "columns without a decoder of their own pass the driver's value unchanged"),
    ).toBe(value);
  });

  it("drizzle renders a table's select list without parameters, in getTableColumns order", () => {
    const dialect = new PgDialect();
    for (const t of tables) {
      const q = dialect.sqlToQuery(new QueryBuilder().select().from(t).getSQL());
      expect(q.params, because(W, `the select list of ${tableName(t)} is kept as raw SQL, so it must have no parameters`)).toEqual([]);
      const list = /^select (.*) from "[^"]+"$/.exec(q.sql)?.[1] ?? "";
      const listed = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      expect(
        listed,
        because(W, `the select list of ${tableName(t)} names the columns in getTableColumns order (the rows' key order)`),
      ).toEqual(Object.values(getTableColumns(t)).map((c) => c.name));
    }
  });

  it("drizzle's pglite driver parses execute() results with the same type parsers as select(), as objects", () => {
    // Inspects what the driver would hand PGlite; no PGlite instance is started (5 s, 1 GB here).
    const session = new PgliteSession({} as never, new PgDialect(), undefined);
    const prepared = session.prepareQuery({ sql: "select 1", params: [] }, undefined, undefined, false) as unknown as {
      rawQueryConfig: { rowMode: string; parsers: Record<string, unknown> };
      queryConfig: { parsers: Record<string, unknown> };
    };
    expect(prepared.rawQueryConfig.rowMode, because(W, "drizzle's pglite execute() returns row objects keyed by column name")).toBe(
      "object",
    );
    expect(
      Object.keys(prepared.rawQueryConfig.parsers).sort(),
      because(W, "on PGlite, execute() (the decoder's input) parses the same types as select()"),
    ).toEqual(Object.keys(prepared.queryConfig.parsers).sort());
  });
});

describe("the row decoder's effect", () => {
  it("has a sample value for every column type the schema uses", () => {
    const types = new Set(tables.flatMap((t) => Object.values(getTableColumns(t)).map((c) => c.getSQLType())));
    const missing = [...types].filter((type) => !(type in SAMPLES));
    expect(missing, "a new column type in the schema: add sample values for it to SAMPLES in tests/contracts/table-rows.test.ts").toEqual(
      [],
    );
  });

  // The Node pool fetches array types on connect (postgres.js then parses arrays); the edge client does not.
  for (const fetch_types of [true, false]) {
    it(`decodes every table's rows exactly as drizzle's select() maps them (postgres.js fetch_types: ${fetch_types})`, async () => {
      const sql: postgres.Sql = pgClient(database.url, { fetch_types });
      try {
        const db = productDb(sql);
        for (const t of tables) {
          await sql.unsafe(shadowSql(t));
          await sql.unsafe(rowsSql(t));
          const ours = await tableRows<Record<string, unknown>>(db, t, dsql`${selectAllFrom(t)} order by ctid`);
          const drizzles = (await db.select().from(t).orderBy(dsql`ctid`)) as Record<string, unknown>[];
          const assumption = `the decoded rows of ${tableName(t)} equal drizzle's own select() mapping`;
          expect(ours, because(W, assumption)).toEqual(drizzles);
          if (t !== renamed)
            expect(
              ours.map((r) => Object.keys(r)),
              because(W, `${assumption}, key order included (it is the API's field order)`),
            ).toEqual(drizzles.map((r) => Object.keys(r)));
          expect(ours).toHaveLength(3);
        }
      } finally {
        await sql.end({ timeout: 1 });
      }
    });
  }
});
