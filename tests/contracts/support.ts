// Shared by the contract tests (tests/contracts/*.test.ts). Each of those files pins one library
// behaviour that a workaround of ours depends on, and checks that the workaround still has its effect.
// Their failure messages come from `because`, which names the workaround, its file, and the installed
// version of each library beside the version the contract was written against, so whoever upgrades a
// library and breaks one is pointed at the right place.
import { readFileSync } from "node:fs";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { CONNECTION_PARAMETERS, type Db } from "../../shared/db/database.ts";
import { preparingClient } from "../../shared/db/preparing-client.ts";
import * as schema from "../../shared/db/schema/index.ts";

const ROOT = new URL("../../", import.meta.url);

export interface Workaround {
  /** Short name, as in the test file's name. */
  name: string;
  /** Where the workaround lives. */
  file: string;
  /** Library -> the version this contract was written against. */
  libs: Record<string, string>;
}

export function installedVersion(lib: string): string {
  const pkg = JSON.parse(readFileSync(new URL(`node_modules/${lib}/package.json`, ROOT), "utf8")) as { version: string };
  return pkg.version;
}

/** The message of a failed contract assertion: which workaround, which library version, what was assumed. */
export function because(w: Workaround, assumption: string): string {
  const libs = Object.entries(w.libs)
    .map(([lib, v]) => `${lib} ${installedVersion(lib)} (contract written against ${v})`)
    .join(", ");
  return `[${w.name}: ${w.file}] assumes ${assumption}. Libraries: ${libs}.`;
}

/** Source text of an installed library file (for contracts on what a library's code does). */
export function librarySource(path: string): string {
  return readFileSync(new URL(`node_modules/${path}`, ROOT), "utf8");
}

/** Polls `done` every 10 ms, at most `tries` times; false if it never held (the caller asserts on it). */
export async function eventually(done: () => boolean | Promise<boolean>, tries = 500): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return done();
}

/** A postgres.js client configured like ours (runtime/database.ts), with `max` connections. */
export function pgClient(url: string, opts: postgres.Options<Record<string, postgres.PostgresType>> = {}): postgres.Sql {
  return postgres(url, { max: 1, connection: CONNECTION_PARAMETERS, onnotice: () => {}, ...opts });
}

/** The drizzle handle exactly as runtime/database.ts and functions/edge-database.ts build it. */
export function productDb(sql: postgres.Sql): Db {
  return drizzle(preparingClient(sql), { schema }) as unknown as Db;
}

/** drizzle straight over postgres.js, without our prepared-statement proxy. */
export function plainDb(sql: postgres.Sql): Db {
  return drizzle(sql, { schema }) as unknown as Db;
}

/**
 * Statements prepared on the connection of `sql` (a one-connection client), leaving out the array-type
 * lookup postgres.js prepares on every new connection (fetch_types). Sent without parameters, so
 * postgres.js uses the simple protocol and this query does not list itself.
 */
export async function preparedOn(sql: postgres.Sql): Promise<{ statement: string; generic_plans: number; custom_plans: number }[]> {
  return sql.unsafe(
    "select statement, generic_plans::int, custom_plans::int from pg_prepared_statements where not from_sql and statement not like '%from pg_catalog.pg_type a%' order by prepare_time",
  );
}
