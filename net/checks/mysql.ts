// mysql (MySQL and MariaDB): connect (with the monitor's database, user, password and optional TLS) and
// run `query`, or a PING without one; with an expected_value, the first column of the first row, as
// text, must equal it. mysql2 speaks the protocol over a socket we open through the monitor policy's
// lookup (reach.ts), so it keeps the name for TLS; the connection is closed after the check and when
// its time is up.
import { connect } from "node:net";
import { type Connection, createConnection } from "mysql2";
import { type Check, CheckConfigError, ConfigReader, elapsed, failed, invalidConfig, reasonOf, succeeded } from "./result.ts";
import { queryOutcome, untilAborted } from "./pinned.ts";

const AUTH_ERRORS = new Set(["ER_ACCESS_DENIED_ERROR", "ER_DBACCESS_DENIED_ERROR", "ER_NOT_SUPPORTED_AUTH_MODE", "ER_HOST_NOT_PRIVILEGED"]);

/** What a server error means to whoever reads the monitor. */
function mysqlReason(e: unknown, phase: "connect" | "query"): string {
  const err = e as { code?: string; message?: string; sqlMessage?: string; fatal?: boolean };
  if (typeof err?.code === "string" && AUTH_ERRORS.has(err.code)) return `auth refused: ${err.sqlMessage ?? err.message}`;
  if (err?.code === "ER_BAD_DB_ERROR") return `database refused: ${err.sqlMessage ?? err.message}`;
  if (err?.sqlMessage) return `${phase === "query" ? "query error" : "connect failed"}: ${err.sqlMessage}`;
  return `connect failed: ${reasonOf(e)}`;
}

export const mysqlCheck: Check = async (spec, signal, timeoutMs) => {
  let options: Parameters<typeof createConnection>[0] & object;
  let query: string | null;
  let expected: string | null;
  try {
    const config = new ConfigReader(spec.config);
    const port = config.number("port", 3306);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
    const database = config.string("database", null);
    options = {
      port,
      user: config.string("username", "root"),
      password: config.string("password", ""),
      ...(database !== null ? { database } : {}),
      ...(config.boolean("tls", false) ? { ssl: { rejectUnauthorized: true, verifyIdentity: true } } : {}),
      connectTimeout: timeoutMs,
      rowsAsArray: true,
      // Every value as the server's text: the expected value is compared as text.
      typeCast: (field) => field.string(),
    };
    query = config.string("query", null);
    expected = config.string("expected_value", null);
    if (expected !== null && query === null) throw new CheckConfigError("expected_value needs a query");
  } catch (e) {
    return invalidConfig(e);
  }
  const start = performance.now();
  let conn: Connection | null = null;
  let phase: "connect" | "query" = "connect";
  const close = () => conn?.destroy();
  try {
    const host = spec.host.replace(/^\[(.*)\]$/, "$1");
    const lookup = spec.reach?.lookup;
    conn = createConnection({ ...options, host, stream: () => connect({ host, port: options.port!, ...(lookup ? { lookup } : {}) }) });
    conn.on("error", () => {});
    const promised = conn.promise();
    await untilAborted(promised.connect(), signal, close);
    phase = "query";
    if (query === null) {
      await untilAborted(promised.ping(), signal, close);
      return succeeded("connected, PING answered", elapsed(start));
    }
    const [rows] = await untilAborted(promised.query({ sql: query, rowsAsArray: true }), signal, close);
    const latency = elapsed(start);
    const list = Array.isArray(rows) ? (rows as unknown[][]) : [];
    const first = list[0]?.[0];
    const got = list.length === 0 ? undefined : first == null ? null : String(first);
    return queryOutcome(expected, got, latency);
  } catch (e) {
    return failed(signal.aborted ? "timeout" : mysqlReason(e, phase), signal.aborted ? null : elapsed(start));
  } finally {
    close();
  }
};
