// The database provider of the Workers entry. workerd forbids using an I/O object (a socket) from a
// request other than the one that opened it, so every lease gets its own postgres.js client (one
// connection, opened lazily on the first query) and release() ends it; the request-context middleware
// hands that to waitUntil so the response is not held up by the goodbye.
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { CONNECTION_PARAMETERS, type DatabaseProvider, type Db, type DbLease } from "../shared/db/database.ts";
import { preparingClient } from "../shared/db/preparing-client.ts";
import * as schema from "../shared/db/schema/index.ts";

export interface EdgeDatabaseOptions {
  /** Seconds to wait for the TCP connection (postgres.js waits 30 s by default). */
  connectTimeoutS?: number;
}

export function edgeDatabase(url: string, opts: EdgeDatabaseOptions = {}): DatabaseProvider {
  const open = new Set<postgres.Sql>();
  const lease = (): DbLease => {
    const sql = postgres(url, {
      max: 1,
      // Skips the array-type lookup every new connection would otherwise run before its first query.
      fetch_types: false,
      connect_timeout: opts.connectTimeoutS ?? 5,
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
