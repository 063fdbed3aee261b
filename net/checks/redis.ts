// redis: connect (with the monitor's user, password, database and optional TLS) and send PING, which
// must be answered PONG; with a `key`, that key must exist, and with an expected_value too, its value
// (GET) must equal it. ioredis is handed the address the monitor policy allowed (pinned.ts), never
// retries or queues, and the connection is closed after the check and when its time is up.
import { Redis, type RedisOptions } from "ioredis";
import { type Check, CheckConfigError, ConfigReader, elapsed, failed, invalidConfig, reasonOf, succeeded } from "./result.ts";
import { pinnedAddress, serverNameOf, untilAborted, valueMismatch } from "./pinned.ts";

/** What a server error means to whoever reads the monitor. */
function redisReason(e: unknown, phase: "connect" | "query"): string {
  const err = e as { name?: string; message?: string };
  const message = err?.message ?? String(e);
  if (/^(WRONGPASS|NOAUTH|NOPERM)|\bAUTH\b/.test(message)) return `auth refused: ${message}`;
  if (err?.name === "ReplyError") return `${phase === "query" ? "command error" : "connect failed"}: ${message}`;
  return `connect failed: ${reasonOf(e)}`;
}

export const redisCheck: Check = async (spec, signal, timeoutMs) => {
  let options: RedisOptions;
  let key: string | null;
  let expected: string | null;
  try {
    const config = new ConfigReader(spec.config);
    const port = config.number("port", 6379);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
    const db = config.number("database", 0);
    if (!Number.isInteger(db) || db < 0 || db > 15) throw new CheckConfigError("database must be an integer 0..15");
    const servername = serverNameOf(spec);
    const username = config.string("username", null);
    const password = config.string("password", null);
    options = {
      port,
      db,
      ...(username !== null ? { username } : {}),
      ...(password !== null ? { password } : {}),
      ...(config.boolean("tls", false) ? { tls: { rejectUnauthorized: true, ...(servername ? { servername } : {}) } } : {}),
      lazyConnect: true,
      connectTimeout: timeoutMs,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      reconnectOnError: () => false,
      enableOfflineQueue: true,
      enableReadyCheck: false,
    };
    key = config.string("key", null);
    expected = config.string("expected_value", null);
    if (expected !== null && key === null) throw new CheckConfigError("expected_value needs a key");
  } catch (e) {
    return invalidConfig(e);
  }
  const start = performance.now();
  let client: Redis | null = null;
  let phase: "connect" | "query" = "connect";
  // ioredis rejects a failed connect with "Connection is closed."; the cause came as an "error" event.
  let cause: unknown = null;
  const close = () => client?.disconnect();
  try {
    const host = await untilAborted(pinnedAddress(spec), signal, () => {});
    client = new Redis({ ...options, host });
    client.on("error", (e) => {
      cause = e;
    });
    await untilAborted(client.connect(), signal, close);
    phase = "query";
    const pong = await untilAborted(client.ping(), signal, close);
    if (pong !== "PONG") return failed(`PING answered ${JSON.stringify(pong)}, not PONG`, elapsed(start));
    if (key === null) return succeeded("PONG", elapsed(start));
    if ((await untilAborted(client.exists(key), signal, close)) === 0)
      return failed(`key ${JSON.stringify(key)} does not exist`, elapsed(start));
    if (expected === null) return succeeded(`PONG, key ${JSON.stringify(key)} exists`, elapsed(start));
    const got = await untilAborted(client.get(key), signal, close);
    const latency = elapsed(start);
    const mismatch = valueMismatch(expected, got);
    if (mismatch) return failed(mismatch, latency);
    return succeeded(`PONG, key ${JSON.stringify(key)} is ${JSON.stringify(got)}`, latency);
  } catch (e) {
    return failed(
      signal.aborted ? "timeout" : redisReason(phase === "connect" ? (cause ?? e) : e, phase),
      signal.aborted ? null : elapsed(start),
    );
  } finally {
    close();
  }
};
