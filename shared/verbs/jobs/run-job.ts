// Runs one job under its advisory lock and records the run: the one way jobs run, for the sidecar's
// scheduler (as the system actor) and for POST /admin/jobs/{name}/run (as the administrator) alike.
// When another run holds the lock the attempt is recorded as "skipped"; a job that throws is recorded
// as "failed" and logged, never rethrown, so a failing job waits for its next slot and never takes the
// sidecar down. Every write is a verb of its own (job-runs.ts, the job's batches): the run is no one
// transaction, only the lock spans it.
import type { AdvisoryLock } from "../../db/advisory-lock.ts";
import type { Logger } from "../../logger.ts";
import type { VerbContext } from "../verb-context.ts";
import type { JobDefinition, JobDeps } from "./job.ts";
import { endRun, type JobRun, type JobTrigger, recordSkippedRun, startRun } from "./job-runs.ts";

export interface JobEnv {
  /** Whoever runs the job: the system actor (scheduler) or the caller of the route. */
  ctx: VerbContext;
  lock: AdvisoryLock;
  logger: Logger;
  signal?: AbortSignal | undefined;
  deps?: JobDeps | undefined;
  /** Called once the lock is held and the run is recorded (a caller that answers before the run ends). */
  onStart?: ((run: JobRun) => void) | undefined;
}

/** The driver's own words (drizzle wraps them in "Failed query: <the whole SQL>"). */
export function failureMessage(e: unknown): string {
  let err = e;
  while (err instanceof Error && err.cause instanceof Error) err = err.cause;
  return err instanceof Error ? err.message : String(err);
}

export async function runJob(env: JobEnv, job: JobDefinition, trigger: JobTrigger): Promise<JobRun> {
  const { ctx, logger } = env;
  const locked = await env.lock.withLock(job.lockKey, async () => {
    const started = performance.now();
    const run = await startRun({ ctx, input: { job: job.name, trigger } });
    env.onStart?.(run);
    try {
      const result = await job.run({ ctx, logger, signal: env.signal, deps: env.deps });
      const detail = { ...result.detail, elapsed_ms: Math.round(performance.now() - started) };
      const done = await endRun({ ctx, input: { id: run.id, outcome: "success", rows_touched: result.rows_touched, detail } });
      logger.info("job finished", {
        job: job.name,
        trigger,
        run_id: run.id,
        rows_touched: result.rows_touched,
        elapsed_ms: detail.elapsed_ms,
      });
      return done;
    } catch (e) {
      const error = failureMessage(e);
      logger.error("job failed", { job: job.name, trigger, run_id: run.id, error });
      return endRun({
        ctx,
        input: { id: run.id, outcome: "failed", error, detail: { elapsed_ms: Math.round(performance.now() - started) } },
      });
    }
  });
  if (locked.acquired) return locked.value;
  logger.warn("job skipped: its lock is held by another run", { job: job.name, trigger, lock: job.lockKey });
  const reason = `The advisory lock ${job.lockKey} is held: another run of ${job.name} is in progress.`;
  return recordSkippedRun({ ctx, input: { job: job.name, trigger, reason } });
}
