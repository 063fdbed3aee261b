// GET /system/stats: how much the inventory holds (every table counted in one statement), the database
// size where PostgreSQL can tell, uptime and version. GET /system/update: this deployment never looks
// for releases over the network, and says so.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { defineRead } from "../verb.ts";

const COUNTED = [
  "hardware",
  "compute_units",
  "services",
  "storage",
  "networks",
  "vlans",
  "ip_addresses",
  "hardware_clusters",
  "external_nodes",
  "misc_items",
  "sites",
  "environments",
  "categories",
  "tags",
  "docs",
  "maps",
  "topologies",
  "kb_hostnames",
  "kb_oui",
  "uploads",
  "users",
] as const;
const COUNTS = sql.raw(`select ${COUNTED.map((t) => `(select count(*) from ${t})::int as ${t}`).join(", ")}`);

export interface RuntimeFacts {
  version: string;
  startedAt: Date;
  database: "postgres" | "pglite";
}

const SYSTEM_READ = { scope: "read:system" };

export const systemStats = defineRead(SYSTEM_READ, async (ctx, facts: RuntimeFacts) => {
  const [counts] = await queryRows<Record<(typeof COUNTED)[number], number>>(ctx.db, COUNTS);
  // PGlite and restricted roles may not answer pg_database_size: then the size is unknown (null).
  const size = await queryRows<{ bytes: string | number }>(ctx.db, sql`select pg_database_size(current_database()) as bytes`).catch(
    () => [],
  );
  const now = ctx.clock.now();
  return {
    counts: Object.fromEntries(COUNTED.map((t) => [t, Number(counts?.[t] ?? 0)])) as Record<(typeof COUNTED)[number], number>,
    database: { kind: facts.database, size_bytes: size[0] ? Number(size[0].bytes) : null },
    version: facts.version,
    started_at: facts.startedAt.toISOString(),
    uptime_s: Math.max(0, Math.floor((now.getTime() - facts.startedAt.getTime()) / 1000)),
  };
});

export const updateStatus = defineRead(SYSTEM_READ, async (_ctx, { version }: { version: string }) => ({
  current_version: version,
  latest_version: null,
  update_available: false,
  detail: "This deployment does not check for updates over the network.",
}));
