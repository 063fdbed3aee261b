// What a scheduled job is: a name, its advisory-lock key, its cron schedule (UTC) and a body that takes
// the verb context of whoever runs it and a logger. The sidecar's scheduler (as the system actor) and
// POST /admin/jobs/{name}/run (as the administrator) both run jobs through run-job.ts, so a job behaves
// the same whoever starts it. A job writes through verbs, each its own short transaction.
import type { Db } from "../../db/database.ts";
import type { Deps } from "../../deps.ts";
import type { Logger } from "../../logger.ts";
import type { VerbContext } from "../verb-context.ts";

export interface JobContext {
  /** The database, the injected clock and who runs the job: its verbs' context. */
  ctx: VerbContext;
  logger: Logger;
  /** Aborted when the sidecar drains: long jobs stop at their next batch boundary. */
  signal?: AbortSignal | undefined;
  /** The process's capabilities (outbound HTTP, feed files, the vault, ACME, the HTTPS reload, backups), for jobs that reach beyond the database; absent in bare runs. */
  deps?: JobDeps | undefined;
}

/** What of Deps a job may use. */
export type JobDeps = Pick<Deps, "outbound" | "cveFeed" | "database"> & Partial<Pick<Deps, "vault" | "acme" | "tls" | "backups">>;

export interface JobResult {
  rows_touched: number;
  detail: Record<string, unknown>;
}

export interface JobDefinition {
  name: string;
  /** The PostgreSQL advisory lock (pg_try_advisory_lock(hashtext(lockKey))) that makes a run exclusive. */
  lockKey: string;
  /** Five-field cron pattern, read in UTC (the default when `scheduleSetting` answers). */
  schedule: string;
  /**
   * A schedule an operator sets (e.g. backup_schedule): read by the scheduler at start and again every
   * minute, so a change applies without a restart; null disables the job's slots (it still runs on demand).
   */
  scheduleSetting?: (db: Db) => Promise<string | null>;
  description: string;
  run(env: JobContext): Promise<JobResult>;
}

export class JobStopped extends Error {
  override name = "JobStopped";
  constructor() {
    super("Stopped before finishing (the process is shutting down); the next run completes the work.");
  }
}

/** Called between batches and passes, so a drain never waits for more than one batch. */
export function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new JobStopped();
}
