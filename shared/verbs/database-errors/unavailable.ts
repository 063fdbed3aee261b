// Recognises errors that mean "the database cannot answer" (as opposed to a bad query), so a request that
// races a database outage answers 503 SERVICE_NOT_READY with Retry-After instead of 500, and the health
// monitor hears of the outage (functions/middleware/admission-guard.ts).
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * The SQLSTATEs PostgreSQL answers with when it cannot take or keep a connection (docs/adr/0341):
 * class 08 (connection exception); 53300 too many connections; 55000, which is what connecting to a
 * database with ALLOW_CONNECTIONS false meets ("not currently accepting connections"; no statement of
 * ours depends on a prerequisite state that could raise it otherwise); 57P01 admin shutdown (a terminated
 * backend), 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting down, recovering), 57P04
 * database dropped, 57P05 idle session timeout; 3D000 no such database.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|53300|55000|57P0[1-5]|3D000)$/;

/** True for a code that says the database cannot be reached or is not taking connections. */
export function isUnavailableCode(code: string): boolean {
  return NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code);
}

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && isUnavailableCode(code)) return true;
  }
  return false;
}
