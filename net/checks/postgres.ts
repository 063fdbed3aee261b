// postgres: connect (with the monitor's database, user, password and optional TLS) and run `query`
// (default `select 1`); with an expected_value, the first column of the first row, as the server's
// text, must equal it. The driver is handed the address the monitor policy allowed (pinned.ts); the
// connection is closed after the check and when its time is up.
import postgres from "postgres";
import { type Check, CheckConfigError, ConfigReader, elapsed, failed, invalidConfig, reasonOf } from "./result.ts";
import { pinnedAddress, serverNameOf, queryOutcome, untilAborted } from "./pinned.ts";

/** What a PostgreSQL error means to whoever reads the monitor: its SQLSTATE class decides. */
function postgresReason(e: unknown, phase: "connect" | "query"): string {
  const err = e as { code?: string; message?: string; name?: string };
  const code = typeof err?.code === "string" ? err.code : "";
  if (code.startsWith("28")) return `auth refused: ${err.message}`;
  if (code === "3D000") return `database refused: ${err.message}`;
  if (err?.name === "PostgresError") return `${phase === "query" ? "query error" : "connect failed"}: ${err.message}`;
  return `connect failed: ${reasonOf(e)}`;
}

export const postgresCheck: Check = async (spec, signal, timeoutMs) => {
  let options: postgres.Options<Record<string, never>>;
  let query: string;
  let expected: string | null;
  try {
    const config = new ConfigReader(spec.config);
    const port = config.number("port", 5432);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
    const username = config.string("username", "postgres");
    const servername = serverNameOf(spec);
    options = {
      port,
      username,
      database: config.string("database", username),
      password: config.string("password", ""),
      ssl: config.boolean("tls", false) ? { rejectUnauthorized: true, ...(servername ? { servername } : {}) } : false,
      max: 1,
      connect_timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
      fetch_types: false,
      prepare: false,
      onnotice: () => {},
      connection: { application_name: "monitor-check" },
    };
    query = config.string("query", "select 1");
    expected = config.string("expected_value", null);
  } catch (e) {
    return invalidConfig(e);
  }
  const start = performance.now();
  let sql: postgres.Sql | null = null;
  let phase: "connect" | "query" = "connect";
  const close = () => void sql?.end({ timeout: 0 }).catch(() => {});
  try {
    const host = await untilAborted(pinnedAddress(spec), signal, () => {});
    sql = postgres({ ...options, host });
    await untilAborted(sql`select 1`, signal, close);
    phase = "query";
    const rows = await untilAborted(sql.unsafe(query).raw(), signal, close);
    const latency = elapsed(start);
    const first = rows[0]?.[0];
    const got = rows.length === 0 ? undefined : first == null ? null : Buffer.from(first as Uint8Array).toString("utf8");
    return queryOutcome(expected, got, latency);
  } catch (e) {
    return failed(signal.aborted ? "timeout" : postgresReason(e, phase), signal.aborted ? null : elapsed(start));
  } finally {
    close();
  }
};
