// POST /admin/jobs/{name}/run: runs a job now, under its lock, exactly as the scheduler would, and
// answers the run record (a run that failed is a 200 whose outcome says "failed"). When another run
// holds the lock the attempt is recorded as skipped and answered 409. The trigger is audited with its
// outcome.
import { ApiError } from "../../errors.ts";
import type { Logger } from "../../logger.ts";
import type { VerbContext } from "../verb-context.ts";
import { auditOnly, requireScope } from "../verb.ts";
import type { JobLock } from "./job-lock.ts";
import type { JobRun } from "./job-runs.ts";
import { JOBS_SCOPE } from "./list-jobs.ts";
import { findJob } from "./registry.ts";
import { runJob } from "./run-job.ts";

export interface TriggerJobInput {
  name: string;
  lock: JobLock;
  logger: Logger;
}

export async function triggerJob({ ctx, input }: { ctx: VerbContext; input: TriggerJobInput }): Promise<JobRun> {
  requireScope(ctx, JOBS_SCOPE);
  const job = findJob(input.name);
  if (!job) throw ApiError.notFound("Job", input.name);
  const run = await runJob({ db: ctx.db, lock: input.lock, clock: ctx.clock, logger: input.logger }, job, "manual");
  await auditOnly(ctx, [
    {
      action: "job.run",
      category: "jobs",
      level: run.outcome === "failed" ? "warning" : "info",
      entity_type: "job",
      entity_id: job.name,
      diff: { run_id: run.id, outcome: run.outcome, rows_touched: run.rows_touched, error: run.error },
    },
  ]);
  if (run.outcome === "skipped")
    throw ApiError.conflict(`Job ${job.name} is already running (its lock ${job.lockKey} is held); this request was recorded as skipped.`, { run });
  return run;
}
