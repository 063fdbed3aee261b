// Which database errors mean "cannot answer right now" (503 SERVICE_NOT_READY with Retry-After) and which
// are a query's own fault (issue 36 item 16). Errors are plain objects shaped like postgres.js's, at the
// top or as the `cause` of a wrapper (drizzle's DrizzleQueryError).
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../../shared/verbs/database-errors/unavailable.ts";

const UNAVAILABLE: [string, string][] = [
  ["08000", "connection exception"],
  ["08003", "connection does not exist"],
  ["08006", "connection failure"],
  ["08001", "client unable to establish connection"],
  ["08004", "server rejected the connection"],
  ["08P01", "protocol violation"],
  ["53300", "too many connections"],
  ["55000", "database is not currently accepting connections (ALLOW_CONNECTIONS false)"],
  ["57P01", "admin shutdown (terminated backend)"],
  ["57P02", "crash shutdown"],
  ["57P03", "cannot connect now (starting up or shutting down)"],
  ["57P04", "database dropped"],
  ["57P05", "idle session timeout"],
  ["3D000", "database does not exist"],
  ["ECONNREFUSED", "refused"],
  ["ECONNRESET", "reset"],
  ["ETIMEDOUT", "timed out"],
  ["CONNECT_TIMEOUT", "postgres.js connect timeout"],
  ["CONNECTION_CLOSED", "postgres.js connection closed"],
];

const NOT_UNAVAILABLE: [string, string][] = [
  ["23505", "unique violation"],
  ["23503", "foreign key violation"],
  ["22P02", "invalid text representation"],
  ["42P01", "undefined table"],
  ["42601", "syntax error"],
  ["40001", "serialization failure"],
  ["40P01", "deadlock detected"],
  ["55P03", "lock not available"],
  ["55006", "object in use"],
  ["57014", "query canceled"],
  ["53100", "disk full"],
  ["53200", "out of memory"],
  ["XX000", "internal error"],
];

describe("isDatabaseUnavailable", () => {
  it.each(UNAVAILABLE)("%s (%s) is unavailable, at the top and as a cause", (code) => {
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: Object.assign(new Error("x"), { code }) }))).toBe(true);
  });

  it.each(NOT_UNAVAILABLE)("%s (%s) is not", (code) => {
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: Object.assign(new Error("x"), { code }) }))).toBe(false);
  });

  it("an error with no code, or no error at all, is not", () => {
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable({ code: 55000 })).toBe(false);
  });
});
