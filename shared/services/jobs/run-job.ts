// Runs one job under its advisory lock and records the run: the one way jobs run, for the sidecar's
// scheduler and for POST /admin/jobs/{name}/run alike. When another run holds the lock the attempt is
// recorded as "skipped"; a job that throws is recorded as "failed" and logged, never rethrown, so a
// failing job waits for its next slot and never takes the sidecar down.
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/database.ts";
import type { Logger } from "../../logger.ts";
import type { JobDefinition } from "./job.ts";
import type { JobLock } from "./job-lock.ts";
import { closeInterrupted, finishRun, insertRun, type JobRun, type JobTrigger } from "./job-runs.ts";

export interface JobEnv {
  db: Db;
  lock: JobLock;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal | undefined;
}

/** The driver's own words (drizzle wraps them in "Failed query: <the whole SQL>"). */
export function failureMessage(e: unknown): string {
  let err = e;
  while (err instanceof Error && err.cause instanceof Error) err = err.cause;
  return err instanceof Error ? err.message : String(err);
}

export async function runJob(env: JobEnv, job: JobDefinition, trigger: JobTrigger): Promise<JobRun> {
  const { db, clock, logger } = env;
  const locked = await env.lock.withLock(job.lockKey, async () => {
    const started = performance.now();
    await closeInterrupted(db, job.name, clock.now());
    const run = await insertRun(db, { job: job.name, trigger, started_at: clock.now(), outcome: "running" });
    try {
      const result = await job.run({ db, clock, logger, signal: env.signal });
      const detail = { ...result.detail, elapsed_ms: Math.round(performance.now() - started) };
      const done = await finishRun(db, run.id, { outcome: "success", finished_at: clock.now(), rows_touched: result.rows_touched, detail });
      logger.info("job finished", { job: job.name, trigger, run_id: run.id, rows_touched: result.rows_touched, elapsed_ms: detail.elapsed_ms });
      return done;
    } catch (e) {
      const error = failureMessage(e);
      logger.error("job failed", { job: job.name, trigger, run_id: run.id, error });
      return finishRun(db, run.id, { outcome: "failed", finished_at: clock.now(), error, detail: { elapsed_ms: Math.round(performance.now() - started) } });
    }
  });
  if (locked.acquired) return locked.value;
  const now = clock.now();
  logger.warn("job skipped: its lock is held by another run", { job: job.name, trigger, lock: job.lockKey });
  return insertRun(db, {
    job: job.name,
    trigger,
    started_at: now,
    finished_at: now,
    outcome: "skipped",
    detail: { reason: `The advisory lock ${job.lockKey} is held: another run of ${job.name} is in progress.` },
  });
}
