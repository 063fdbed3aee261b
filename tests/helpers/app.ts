// Builds the real app on a fresh test database the way a Node entry does (openRuntime), for
// `app.request()` tests. Nothing is mocked: PostgreSQL and Redis are the machine's own.
import type { Hono } from "hono";
import postgres from "postgres";
import { createApp } from "../../functions/app.ts";
import type { AppEnv, Deps } from "../../functions/deps.ts";
import { parseConfig } from "../../shared/config.ts";
import { type NodeRuntime, openRuntime } from "../../runtime/node-deps.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { TEST_VAULT_KEY } from "./env.ts";

export interface TestApp {
  app: Hono<AppEnv>;
  runtime: NodeRuntime;
  database: TestDatabase;
  /** A separate client on the same database, for arranging and checking rows directly. */
  sql: postgres.Sql;
  close(): Promise<void>;
}

/** `deps` replaces parts of the runtime's deps before the app is built (e.g. a peerAddress provider). */
export async function createTestApp(env: Record<string, string> = {}, deps: Partial<Deps> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = parseConfig(
    { DATABASE_URL: database.url, LOG_LEVEL: "error", DB_POOL_MAX: "4", HEALTH_CACHE_MS: "0", SVC_VAULT_KEY: TEST_VAULT_KEY, ...env },
    "0.0.0-test",
  );
  const runtime = await openRuntime(config);
  runtime.deps.lifecycle.markReady();
  Object.assign(runtime.deps, deps);
  const app = createApp(runtime.deps);
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  return {
    app,
    runtime,
    database,
    sql,
    close: async () => {
      await sql.end({ timeout: 1 });
      await runtime.close();
      await database.drop();
    },
  };
}

export function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } };
}

/** Runs `change`, then waits (3 s at most) until `generation` moves: the cache heard of it through the database. */
async function untilAnnounced(generation: () => number, change: () => Promise<unknown>, what: string): Promise<void> {
  const before = generation();
  await change();
  for (let i = 0; i < 300 && generation() === before; i++) await new Promise((r) => setTimeout(r, 10));
  if (generation() === before) throw new Error(`the ${what} was not announced within 3 s`);
}

/**
 * Runs SQL that changes what a credential resolves to, then waits until the app's credential cache has
 * heard of it through the database (migration 0007's triggers -> NOTIFY), as another instance would.
 */
export async function changeCredentials(t: Pick<TestApp, "runtime">, change: () => Promise<unknown>): Promise<void> {
  const cache = t.runtime.deps.credentialCache;
  if (!cache) return void (await change());
  await untilAnnounced(() => cache.generation, change, "credential change");
}

/**
 * Runs `change` (which NOTIFYs `monitors` or `status_pages`, as the verbs do), then waits until the
 * app's status page cache has heard of it (docs/adr/0459), once its LISTEN is up.
 */
export async function changeStatusPages(t: Pick<TestApp, "runtime">, change: () => Promise<unknown>): Promise<void> {
  const cache = t.runtime.deps.statusPageCache!;
  for (let i = 0; i < 300 && !cache.live; i++) await new Promise((r) => setTimeout(r, 10));
  await untilAnnounced(() => cache.generation, change, "status page change");
}
