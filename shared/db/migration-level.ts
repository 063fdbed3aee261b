// The migration level this build expects, read from drizzle-kit's journal at build time, and the level
// a database is at. A database behind the build must not take writes (spec 7.3: SERVICE_NOT_READY).
import { sql } from "drizzle-orm";
import journal from "../../migrations/meta/_journal.json" with { type: "json" };
import { type Db, queryRows } from "./database.ts";

export const expectedMigrations: { count: number; lastTag: string; lastWhen: number } = {
  count: journal.entries.length,
  lastTag: journal.entries.at(-1)?.tag ?? "",
  lastWhen: journal.entries.at(-1)?.when ?? 0,
};

export type MigrationStatus = "ok" | "behind" | "ahead";

export interface MigrationLevel {
  status: MigrationStatus;
  applied: number;
  expected: number;
}

export async function readMigrationLevel(db: Db): Promise<MigrationLevel> {
  const [exists] = await queryRows<{ present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!exists?.present) return { status: "behind", applied: 0, expected: expectedMigrations.count };
  const [row] = await queryRows<{ applied: number | string; last: number | string | null }>(
    db,
    sql`select count(*)::int as applied, max(created_at)::bigint as last from drizzle.__drizzle_migrations`,
  );
  const applied = Number(row?.applied ?? 0);
  const last = row?.last == null ? 0 : Number(row.last);
  const status: MigrationStatus = last < expectedMigrations.lastWhen ? "behind" : last > expectedMigrations.lastWhen ? "ahead" : "ok";
  return { status, applied, expected: expectedMigrations.count };
}
