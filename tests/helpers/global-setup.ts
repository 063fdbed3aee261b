// Runs once before the suite: builds the migrated template database that every test file clones, and
// drops databases left behind by an earlier interrupted run.
import postgres from "postgres";
import { parseConfig } from "../../shared/config.ts";
import { openDatabase } from "../../sidecar/runtime/database.ts";
import { applyMigrations } from "../../sidecar/runtime/migrate.ts";
import { databaseUrl, PG_ADMIN_URL, TEMPLATE_DB } from "./env.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  const leftovers = await admin<{ datname: string }[]>`select datname from pg_database where datname like 'cp_test_%'`;
  for (const { datname } of leftovers) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
  await admin.unsafe(`create database "${TEMPLATE_DB}"`);
  const database = await openDatabase(parseConfig({ DATABASE_URL: databaseUrl(TEMPLATE_DB), DB_POOL_MAX: "2" }));
  await applyMigrations(database);
  await database.provider.close();
  await admin.end();
  return async () => {
    const a = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
    const dbs = await a<{ datname: string }[]>`select datname from pg_database where datname like 'cp_test_%'`;
    for (const { datname } of dbs) await a.unsafe(`drop database if exists "${datname}" with (force)`);
    await a.end();
  };
}
