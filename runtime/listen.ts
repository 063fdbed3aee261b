// LISTEN on a PostgreSQL channel, whichever driver the process runs on: postgres.js (its shared LISTEN
// connection, which it re-establishes and re-listens by itself) or embedded PGlite (one session, same
// process). Used by the sidecar's workers (the UI streams' hub, the SNMP poller). The credential cache
// listens on its own connection instead (credential-invalidation.ts): it must know when LISTEN drops.
import type { NodeDatabase } from "./database.ts";

export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

export function databaseListener(database: NodeDatabase): Listen | undefined {
  const { sql, pglite } = database;
  if (sql)
    return async (channel, onPayload) => {
      const { unlisten } = await sql.listen(channel, onPayload);
      return unlisten;
    };
  if (pglite) return async (channel, onPayload) => pglite.listen(channel, onPayload);
  return undefined;
}
