// The database handle both halves use. On Node one pool serves the whole process; on the edge a client
// lives for one request (workerd forbids sharing I/O objects across requests), hence the lease.
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema/index.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DbLease {
  db: Db;
  /** Gives the handle back; on the edge this ends the per-request client. */
  release(): Promise<void>;
  /** True for a per-request client that must be ended after the response (the edge). */
  perRequest?: boolean;
}

export interface DatabaseAccess {
  readonly kind: "postgres" | "pglite";
  lease(): DbLease;
  close(): Promise<void>;
}

/**
 * Startup parameters of every PostgreSQL connection we open (docs/adr/0066-jit-is-off.md).
 * JIT off: our statements are short index walks whose cost estimates (recursive traversals
 * especially) cross jit_above_cost, and compiling them took ~35 ms of a 40 ms blast radius.
 * Plan caching stays PostgreSQL's own (auto): the hot statements are prepared (preparing-client.ts)
 * and keep their plans; the retention walk, which a generic plan served badly, asks for custom plans
 * in its own transactions (shared/verbs/retention/batches.ts).
 */
export const CONNECTION_PARAMETERS = { application_name: "infra-control-plane", jit: "off" } as const;

/** Runs raw SQL and returns its rows, whichever driver is underneath (postgres.js or PGlite). */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** A provider around one long-lived handle (Node: postgres.js pool or PGlite). */
export function sharedAccess(kind: DatabaseAccess["kind"], db: Db, close: () => Promise<void>): DatabaseAccess {
  const lease: DbLease = { db, release: async () => {} };
  return { kind, lease: () => lease, close };
}
