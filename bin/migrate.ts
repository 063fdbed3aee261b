// `npm run migrate`: applies the migrations to DATABASE_URL and exits (split and edge deployments).
import { openDatabase } from "../runtime/database.ts";
import { loadConfig } from "../runtime/node-deps.ts";
import { applyMigrations } from "../sidecar/startup/migrate.ts";

const config = loadConfig();
if (!config.DATABASE_URL) {
  process.stderr.write("invalid configuration: DATABASE_URL expects a postgres:// URL to migrate\n");
  process.exit(1);
}
const database = await openDatabase(config);
try {
  await applyMigrations(database);
  process.stdout.write("migrations applied\n");
} finally {
  await database.provider.close();
}
