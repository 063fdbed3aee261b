// Where drizzle-kit writes the SQL migrations: read by the migrator (sidecar/startup/migrate.ts) and by
// the COPY fallback of a backup (runtime/backups/copy-dump.ts), which replays them as the archive's schema.
import { fileURLToPath } from "node:url";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../migrations", import.meta.url));
