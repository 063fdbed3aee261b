// Runs once before the suite: builds the migrated template database that every test file clones, and
// drops databases left behind by earlier runs whose runner process is gone. Databases are named
// cp_test_<runner pid>_..., so runs in parallel (two terminals, CI and a developer) never touch each
// other's databases.
import postgres from "postgres";
import { parseConfig } from "../../shared/config.ts";
import { openDatabase } from "../../runtime/database.ts";
import { applyMigrations } from "../../sidecar/startup/migrate.ts";
import { processAlive } from "../../runtime/data-dir-lock.ts";
import { databaseUrl, PG_ADMIN_URL, templateDb, TEST_OUTBOUND_POLICY } from "./env.ts";

async function dropWhere(admin: postgres.Sql, keep: (runnerPid: number) => boolean): Promise<void> {
  const dbs = await admin<{ datname: string }[]>`select datname from pg_database where datname like 'cp_test_%'`;
  for (const { datname } of dbs) {
    const pid = Number(/^cp_test_(?:template_)?(\d+)/.exec(datname)?.[1]);
    if (!keep(pid)) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  process.env.CP_TEST_RUNNER_PID = String(process.pid);
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  await dropWhere(admin, (pid) => pid !== process.pid && processAlive(pid));
  await admin.unsafe(`create database "${templateDb()}"`);
  const database = await openDatabase(parseConfig({ DATABASE_URL: databaseUrl(templateDb()), DB_POOL_MAX: "2" }));
  await applyMigrations(database);
  await database.provider.close();
  const template = postgres(databaseUrl(templateDb()), { max: 1, onnotice: () => {} });
  await template`insert into app_settings (key, value) values ('outbound_policy', ${template.json(TEST_OUTBOUND_POLICY)})`;
  await template.end();
  await admin.end();
  return async () => {
    const a = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
    await dropWhere(a, (pid) => pid !== process.pid);
    await a.end();
  };
}
