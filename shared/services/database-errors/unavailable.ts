// Recognises errors that mean "the database cannot answer" (as opposed to a bad query), so a write that
// races a database outage answers 503 SERVICE_NOT_READY instead of 500.
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
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention), and 3D000 (no database).
const SQLSTATE = /^(08...|57P0[1-4]|3D000)$/;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
  }
  return false;
}
