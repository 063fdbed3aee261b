// The one migrator: drizzle's, on whichever driver the process opened. On PostgreSQL it runs under a
// session advisory lock so that sidecars starting together apply each migration once.
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { NodeDatabase } from "../../runtime/database.ts";
import { MIGRATIONS_FOLDER } from "../../runtime/migrations-folder.ts";

const MIGRATION_LOCK = 7_246_001; // arbitrary, fixed: the advisory lock key of "migrations"

export async function applyMigrations(database: NodeDatabase): Promise<void> {
  if (database.pglite) {
    await migratePglite(drizzlePglite(database.pglite), { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const sql = database.sql!;
  const holder = await sql.reserve();
  try {
    await holder`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await holder`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    holder.release();
  }
}
