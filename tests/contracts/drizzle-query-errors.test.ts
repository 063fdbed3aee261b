// Contract of the code that reads failed queries' errors through drizzle's wrapper:
// shared/verbs/tokens/unique-violation.ts (which unique index a 23505 names),
// shared/safe-error.ts (what of an error may be logged) and shared/verbs/jobs/run-job.ts
// (failureMessage: the driver's words). They rely on drizzle wrapping the driver's error in a
// DrizzleQueryError whose message carries the parameter values and whose `cause` is postgres.js's
// PostgresError, with the index name in `constraint_name`.
import { DrizzleQueryError } from "drizzle-orm";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../shared/db/schema/index.ts";
import { safeErrorFields } from "../../shared/safe-error.ts";
import { failureMessage } from "../../shared/verbs/jobs/run-job.ts";
import { isUniqueViolation } from "../../shared/verbs/tokens/unique-violation.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { because, pgClient, productDb, type Workaround } from "./support.ts";

const W: Workaround = {
  name: "drizzle-query-errors",
  file: "shared/verbs/tokens/unique-violation.ts, shared/safe-error.ts, shared/verbs/jobs/run-job.ts",
  libs: { "drizzle-orm": "0.45.4", postgres: "3.4.9" },
};
const SECRET_HASH = "pbkdf2_sha256$1000$c2FsdA$contract-secret-value";
const EMAIL = "duplicate.contract@example.com";

let database: TestDatabase;
let sql: postgres.Sql;
let error: unknown;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = pgClient(database.url);
  const db = productDb(sql);
  await db.insert(users).values({ email: EMAIL, password_hash: SECRET_HASH });
  error = await db
    .insert(users)
    .values({ email: EMAIL.toUpperCase(), password_hash: SECRET_HASH })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
});
afterAll(async () => {
  await sql.end({ timeout: 1 });
  await database.drop();
});

describe("drizzle-orm and postgres.js errors, as our error readers expect them", () => {
  it("drizzle wraps a failed query's error in DrizzleQueryError with the statement in .query, values in the message, and the driver's error in .cause", () => {
    expect(error, because(W, "drizzle throws DrizzleQueryError for a failed query")).toBeInstanceOf(DrizzleQueryError);
    const e = error as DrizzleQueryError;
    expect(e.message, because(W, "drizzle's message is 'Failed query: <sql>\\nparams: <values>' (so it is never logged as is)")).toMatch(
      /^Failed query: insert into "users"[\s\S]*\nparams: .*contract-secret-value/,
    );
    expect(e.query, because(W, "drizzle keeps the statement text, with placeholders, in .query")).toMatch(/^insert into "users" .*\$1/);
    expect(e.cause, because(W, "drizzle's wrapper has the driver's error as its cause")).toBeInstanceOf(Error);
  });

  it("postgres.js's error carries the SQLSTATE in code, the index in constraint_name, a severity, and the statement non-enumerably", () => {
    const cause = (error as { cause: Record<string, unknown> }).cause;
    expect(cause, because(W, "postgres.js's PostgresError fields")).toMatchObject({
      code: "23505",
      constraint_name: "users_email_lower_idx",
      severity: "ERROR",
      message: 'duplicate key value violates unique constraint "users_email_lower_idx"',
    });
    const query = Object.getOwnPropertyDescriptor(cause, "query");
    expect(
      { enumerable: query?.enumerable, query: query?.value },
      because(W, "postgres.js keeps the statement in a non-enumerable `query` (debug off)"),
    ).toEqual({
      enumerable: false,
      query: expect.stringMatching(/^insert into "users"/),
    });
  });
});

describe("the error readers' effect", () => {
  it("isUniqueViolation names the violated index through drizzle's wrapper", () => {
    expect(isUniqueViolation(error, "users_email_lower_idx"), because(W, "the index name is found in the wrapper's cause")).toBe(true);
    expect(isUniqueViolation(error, "another_index")).toBe(false);
  });

  it("safeErrorFields tells SQLSTATE, constraint and statement, and none of the values", () => {
    const fields = safeErrorFields(error);
    expect(fields, because(W, "the wrapper's statement and the cause's SQLSTATE and constraint are found")).toMatchObject({
      sqlstate: "23505",
      constraint: "users_email_lower_idx",
      statement: expect.stringMatching(/^insert into "users"/),
    });
    const logged = JSON.stringify(fields);
    expect(
      logged.includes("contract-secret-value") || logged.toLowerCase().includes(EMAIL),
      because(W, "no parameter value reaches the log fields"),
    ).toBe(false);
  });

  it("failureMessage gives the driver's own words, not drizzle's 'Failed query' wrapper", () => {
    expect(failureMessage(error), because(W, "the innermost cause is postgres.js's error")).toBe(
      'duplicate key value violates unique constraint "users_email_lower_idx"',
    );
  });
});
