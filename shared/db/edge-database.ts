// The database provider of the Workers entry. workerd forbids using an I/O object (a socket) from a
// request other than the one that opened it, so every lease gets its own postgres.js client (one
// connection, opened lazily on the first query) and release() ends it; the request-context middleware
// hands that to waitUntil so the response is not held up by the goodbye.
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { CONNECTION_PARAMETERS, type DatabaseAccess, type Db, type DbLease } from "./database.ts";
import { preparingClient } from "./preparing-client.ts";
import * as schema from "./schema/index.ts";

/**
 * How every postgres.js client of ours (this one and the Node pool) connects. An attempt gives up after
 * 2 s (postgres.js waits 30). Reconnects back off the driver's way (3^n / 100 s) but at most 50 ms, not
 * 20 s: while the server is gone each failed attempt settles exactly one waiting query, so a longer delay
 * spares the server no attempt and only holds the queued queries (a read that raced an outage took over
 * 10 s to get its 503). The admission guard stops adding reads to that queue once the database is known down.
 */
export const CONNECT_TIMING = {
  connect_timeout: 2,
  backoff: (retries: number) => Math.min(0.05, 3 ** retries / 100),
};

export interface EdgeDatabaseOptions {
  /** Seconds to wait for the connection (CONNECT_TIMING's by default). */
  connectTimeoutS?: number;
}

export function edgeDatabase(url: string, opts: EdgeDatabaseOptions = {}): DatabaseAccess {
  const open = new Set<postgres.Sql>();
  const lease = (): DbLease => {
    const sql = postgres(url, {
      max: 1,
      // Skips the array-type lookup every new connection would otherwise run before its first query.
      fetch_types: false,
      ...CONNECT_TIMING,
      connect_timeout: opts.connectTimeoutS ?? CONNECT_TIMING.connect_timeout,
      connection: CONNECTION_PARAMETERS,
      onnotice: () => {},
    });
    open.add(sql);
    const db = drizzle(preparingClient(sql), { schema }) as unknown as Db;
    let released: Promise<void> | undefined;
    return {
      db,
      perRequest: true,
      release: () =>
        (released ??= sql
          .end({ timeout: 5 })
          .catch(() => {})
          .finally(() => open.delete(sql))),
    };
  };
  return {
    kind: "postgres",
    lease,
    // Nothing long-lived to close: an isolate is never shut down by us. Ends whatever is still leased.
    close: async () => {
      await Promise.all([...open].map((sql) => sql.end({ timeout: 5 }).catch(() => {})));
      open.clear();
    },
  };
}
