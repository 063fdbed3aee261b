// Contract of the code that reads db.execute() results whatever the driver: queryRows
// (shared/db/database.ts: postgres.js answers an array of rows, PGlite `{ rows }`), the affected-row
// counts of shared/verbs/resources/forget-references.ts (postgres.js `count`, PGlite `affectedRows`).
import { sql as dsql } from "drizzle-orm";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../shared/db/database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { because, pgClient, productDb, type Workaround } from "./support.ts";

const W: Workaround = {
  name: "driver-results",
  file: "shared/db/database.ts (queryRows), shared/verbs/resources/forget-references.ts",
  libs: { "drizzle-orm": "0.45.4", postgres: "3.4.9" },
};

let database: TestDatabase;
let sql: postgres.Sql;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = pgClient(database.url);
});
afterAll(async () => {
  await sql.end({ timeout: 1 });
  await database.drop();
});

describe("drizzle-orm's postgres-js execute(), as our raw-SQL readers expect it", () => {
  it("execute() answers postgres.js's result: an array of row objects keyed by column name", async () => {
    const result: unknown = await productDb(sql).execute(dsql`select ${7}::int as n, 'x' as s`);
    expect(Array.isArray(result), because(W, "drizzle's postgres-js execute() resolves to the row array itself")).toBe(true);
    expect([...(result as unknown[])]).toEqual([{ n: 7, s: "x" }]);
  });

  it("execute() of a write answers the number of affected rows in `count`", async () => {
    const db = productDb(sql);
    await db.execute(dsql`create temp table contract_counts (n int)`);
    await db.execute(dsql`insert into contract_counts select generate_series(1, 3)`);
    const result = (await db.execute(dsql`delete from contract_counts where n > ${1}`)) as unknown as { count?: number };
    expect(result.count, because(W, "postgres.js's result carries the affected rows in count")).toBe(2);
  });
});

describe("queryRows's effect", () => {
  it("queryRows gives the rows of a postgres.js execute()", async () => {
    expect(
      await queryRows(productDb(sql), dsql`select ${1}::int as a union all select ${2}::int`),
      because(W, "queryRows reads postgres.js's array result"),
    ).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
