// LISTEN on a PostgreSQL channel, whichever driver the sidecar runs on: postgres.js (a dedicated
// connection it re-establishes by itself) or embedded PGlite (one session, same process).
import type { NodeDatabase } from "../../runtime/database.ts";

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
