// Runtimes for the monitor runner tests: a real PostgreSQL database per file (cloned from the migrated
// template), a runtime whose clock the test drives, and monitors written straight into the table.
import { type SQL, sql } from "drizzle-orm";
import type { Clock } from "../../../shared/clock.ts";
import { parseConfig } from "../../../shared/config.ts";
import { queryRows } from "../../../shared/db/database.ts";
import { monitors } from "../../../shared/db/schema/index.ts";
import { type NodeRuntime, openRuntime } from "../../../runtime/node-deps.ts";
import { REDIS_URL, TEST_VAULT_KEY } from "../../helpers/env.ts";

/** A clock the test moves by hand (starts at `start`). */
export class DrivenClock implements Clock {
  #at: number;
  constructor(start = Date.parse("2026-11-02T10:00:00Z")) {
    this.#at = start;
  }
  now(): Date {
    return new Date(this.#at);
  }
  advance(ms: number): void {
    this.#at += ms;
  }
  set(at: Date): void {
    this.#at = at.getTime();
  }
}

export async function openTestRuntime(databaseUrl: string, clock?: Clock): Promise<NodeRuntime> {
  const config = parseConfig(
    {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "error",
      DB_POOL_MAX: "6",
      HEALTH_CACHE_MS: "0",
      SVC_VAULT_KEY: TEST_VAULT_KEY,
    },
    "0.0.0-test",
  );
  const runtime = await openRuntime(config);
  if (clock) (runtime.deps as { clock: Clock }).clock = clock;
  return runtime;
}

export type NewMonitor = Partial<typeof monitors.$inferInsert> & Pick<typeof monitors.$inferInsert, "check_type" | "host">;

export async function insertMonitor(runtime: NodeRuntime, m: NewMonitor): Promise<number> {
  const [row] = await runtime.database.db
    .insert(monitors)
    .values({ name: `m-${Math.random().toString(36).slice(2, 8)}`, next_check_at: runtime.deps.clock.now(), ...m })
    .returning({ id: monitors.id });
  return row!.id;
}

export async function monitorRow(runtime: NodeRuntime, id: number) {
  const [row] = await runtime.database.db.select().from(monitors).where(sql`id = ${id}`);
  return row!;
}

export const rowsOf = <T>(runtime: NodeRuntime, query: SQL): Promise<T[]> => queryRows<T>(runtime.database.db, query);
