// An advisory lock held for the length of some work, across every process on the database: one run of
// a job at a time (spec 6.7), for every sidecar and functions instance. On PostgreSQL the lock is a
// transaction-scoped lock held by a transaction that stays open on its own connection for the whole
// body (whose writes commit on other connections, each in its verb), so the lock ends with the body, or
// with the connection if the process dies. That transaction writes nothing: it is the one transaction
// opened outside shared/verbs/verb.ts, because a lock that must outlive many short verbs cannot be
// one of them (tests/unit/runtime-neutral.test.ts lists it). PGlite has one session, where advisory
// locks are re-entrant and guard nothing (docs/architecture.md, platform notes), so there a per-process guard does it.
import { sql } from "drizzle-orm";
import { type DatabaseAccess, type Db, type DbLease, queryRows } from "./database.ts";

export type LockOutcome<T> = { acquired: false } | { acquired: true; value: T };

export interface AdvisoryLock {
  /** Runs `body` while holding `key`, or answers { acquired: false } at once when another holder has it. */
  withLock<T>(key: string, body: () => Promise<T>): Promise<LockOutcome<T>>;
}

const tryLock = async (db: Db, fn: "pg_try_advisory_xact_lock" | "pg_try_advisory_lock", key: string): Promise<boolean> => {
  const [row] = await queryRows<{ got: boolean }>(db, sql`select ${sql.raw(fn)}(hashtext(${key})) as got`);
  return row?.got === true;
};

/** PostgreSQL: the lock lives in a transaction on a connection of its own (a second lease on the edge). */
export function transactionLock(lease: () => DbLease): AdvisoryLock {
  return {
    async withLock(key, body) {
      const holder = lease();
      try {
        return await holder.db.transaction(async (tx) => {
          if (!(await tryLock(tx as unknown as Db, "pg_try_advisory_xact_lock", key))) return { acquired: false as const };
          return { acquired: true as const, value: await body() };
        });
      } finally {
        await holder.release();
      }
    },
  };
}

// The all-in-one process is the only PGlite user, so a process-wide set is the whole guard.
const heldInProcess = new Set<string>();

/** PGlite: session lock (kept for symmetry and visibility in pg_locks) plus the in-process guard. */
export function sessionLock(db: Db): AdvisoryLock {
  return {
    async withLock(key, body) {
      if (heldInProcess.has(key)) return { acquired: false };
      heldInProcess.add(key);
      try {
        if (!(await tryLock(db, "pg_try_advisory_lock", key))) return { acquired: false };
        try {
          return { acquired: true, value: await body() };
        } finally {
          await db.execute(sql`select pg_advisory_unlock(hashtext(${key}))`);
        }
      } finally {
        heldInProcess.delete(key);
      }
    },
  };
}

export function advisoryLockFor(provider: DatabaseAccess): AdvisoryLock {
  return provider.kind === "pglite" ? sessionLock(provider.lease().db) : transactionLock(() => provider.lease());
}
