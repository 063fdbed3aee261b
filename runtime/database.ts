// Opens the database of a Node process: PostgreSQL through postgres.js when DATABASE_URL is set,
// otherwise embedded PGlite under DATA_DIR (the all-in-one default).
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Config } from "../shared/config.ts";
import { CONNECTION_PARAMETERS, type DatabaseProvider, type Db, sharedProvider } from "../shared/db/database.ts";
import { preparingClient } from "../shared/db/preparing-client.ts";
import * as schema from "../shared/db/schema/index.ts";
import { lockDataDir } from "./data-dir-lock.ts";

export interface NodeDatabase {
  provider: DatabaseProvider;
  db: Db;
  /** postgres.js client (postgres mode only): LISTEN/NOTIFY and reserved connections. */
  sql?: postgres.Sql;
  pglite?: PGlite;
}

export function postgresClient(url: string, max: number): postgres.Sql {
  // connect_timeout keeps a probe against an unreachable server from hanging for postgres.js's 30 s.
  return postgres(url, { max, connect_timeout: 5, idle_timeout: 60, connection: CONNECTION_PARAMETERS, onnotice: () => {} });
}

export async function openDatabase(config: Config): Promise<NodeDatabase> {
  if (config.DATABASE_URL) {
    const sql = postgresClient(config.DATABASE_URL, config.DB_POOL_MAX);
    const db = drizzlePostgres(preparingClient(sql), { schema }) as unknown as Db;
    return { provider: sharedProvider("postgres", db, () => sql.end({ timeout: 5 })), db, sql };
  }
  const unlock = lockDataDir(config.DATA_DIR);
  try {
    // pg_trgm backs the name-search indexes (migration 0001); PGlite loads contrib extensions explicitly.
    const pglite = await PGlite.create(config.DATA_DIR, { extensions: { pg_trgm } });
    const db = drizzlePglite(pglite, { schema }) as unknown as Db;
    const close = async () => {
      await pglite.close();
      unlock();
    };
    return { provider: sharedProvider("pglite", db, close), db, pglite };
  } catch (e) {
    unlock();
    throw e;
  }
}
