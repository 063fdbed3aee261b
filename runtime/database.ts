// Opens the database of a Node process: PostgreSQL through postgres.js when DATABASE_URL is set,
// otherwise embedded PGlite under DATA_DIR (the all-in-one default).
import { connect, type Socket } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Config } from "../shared/config.ts";
import { CONNECT_TIMING } from "../shared/db/edge-database.ts";
import { CONNECTION_PARAMETERS, type DatabaseAccess, type Db, sharedAccess } from "../shared/db/database.ts";
import { preparingClient } from "../shared/db/preparing-client.ts";
import * as schema from "../shared/db/schema/index.ts";
import type { Logger } from "../shared/logger.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { fillFromTemplate, isFreshDataDir } from "./pglite-template.ts";
import { PrivateNodeFS } from "./private-nodefs.ts";

// biome-ignore lint/complexity/noBannedTypes: postgres.js's own type for "no custom types"
type NoCustomTypes = {};

export interface NodeDatabase {
  provider: DatabaseAccess;
  db: Db;
  /** postgres.js client (postgres mode only): LISTEN/NOTIFY and reserved connections. */
  sql?: postgres.Sql;
  pglite?: PGlite;
  /**
   * Postgres mode: one connection of its own for the health probes (shared/health.ts), so a probe never
   * waits behind a busy pool and a probe left unanswered means the server is not answering. Closed with
   * `provider`.
   */
  probe?: DatabaseAccess;
}

/**
 * postgres.js's sockets, opened as the driver opens them (documented `socket` option), except that a
 * server closing the connection before it has sent a byte (a TCP proxy or pooler with no database
 * behind it) is a connection error. postgres.js 3.4.9 instead keeps the waiting query and reconnects at
 * once, forever: the query never settles and the process spins (porsager/postgres#1193; drop this once
 * the driver has the fix of #1214). A query cancel request, which the server never answers, would now
 * reject instead of resolving: we cancel no queries.
 */
export function answeredSockets(): (o: postgres.ParsedOptions) => Socket {
  let attempt = 0;
  return ({ host, port, path }) => {
    const i = attempt++ % host.length;
    const [h, p] = [host[i]!, port[i] ?? port[0]!];
    const socket = path ? connect(path) : connect(p, h);
    let answered = false;
    socket.on("data", () => (answered = true));
    socket.once("end", () => {
      if (!answered) socket.destroy(Object.assign(new Error(`${h}:${p} closed the connection before answering`), { code: "ECONNRESET" }));
    });
    // postgres.js names the server in its errors from these.
    return Object.assign(socket, { host: path || h, port: p });
  };
}

export function postgresClient(url: string, max: number): postgres.Sql {
  // CONNECT_TIMING bounds how long a query waits on a pool whose server is gone (2 s attempts, short backoff).
  const options = {
    max,
    ...CONNECT_TIMING,
    idle_timeout: 60,
    connection: CONNECTION_PARAMETERS,
    onnotice: () => {},
    socket: answeredSockets(),
  };
  // `socket` is in the driver's README, not in its type definitions.
  return postgres(url, options as postgres.Options<NoCustomTypes>);
}

export async function openDatabase(config: Config, logger?: Pick<Logger, "warn">): Promise<NodeDatabase> {
  if (config.DATABASE_URL) {
    const sql = postgresClient(config.DATABASE_URL, config.DB_POOL_MAX);
    const db = drizzlePostgres(preparingClient(sql), { schema }) as unknown as Db;
    const probeSql = postgresClient(config.DATABASE_URL, 1);
    const endProbe = () => probeSql.end({ timeout: 1 });
    const probe = sharedAccess("postgres", drizzlePostgres(probeSql, { schema }) as unknown as Db, endProbe);
    const close = async () => {
      await Promise.all([sql.end({ timeout: 5 }), endProbe()]);
    };
    return { provider: sharedAccess("postgres", db, close), db, sql, probe };
  }
  const unlock = lockDataDir(config.DATA_DIR);
  try {
    // pg_trgm backs the name-search indexes (migration 0001); PGlite loads contrib extensions explicitly.
    // PrivateNodeFS: the database's files are the owner's only (private-nodefs.ts).
    const extensions = { pg_trgm };
    // An empty DATA_DIR is filled from the migrated template (pglite-template.ts), not by initdb; PGlite
    // unpacks it itself only when the template could not be cached.
    const loadDataDir = isFreshDataDir(config.DATA_DIR)
      ? await fillFromTemplate(config.DATA_DIR, extensions, (message, fields) => logger?.warn(message, fields))
      : undefined;
    const pglite = await PGlite.create({ fs: new PrivateNodeFS(config.DATA_DIR), extensions, ...(loadDataDir ? { loadDataDir } : {}) });
    const db = drizzlePglite(pglite, { schema }) as unknown as Db;
    const close = async () => {
      await pglite.close();
      unlock();
    };
    return { provider: sharedAccess("pglite", db, close), db, pglite };
  } catch (e) {
    unlock();
    throw e;
  }
}
