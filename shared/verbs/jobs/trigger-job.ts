// POST /admin/jobs/{name}/run: runs a job now, under its lock, exactly as the scheduler would, and
// answers the run record (a run that failed is a 200 whose outcome says "failed"). When another run
// holds the lock the attempt is recorded as skipped and answered 409. The trigger is audited with its
// outcome.
import { advisoryLockFor } from "../../db/advisory-lock.ts";
import type { DatabaseAccess } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import type { Logger } from "../../logger.ts";
import { defineRead, defineVerb } from "../verb.ts";
import type { JobDefinition, JobDeps } from "./job.ts";
import { JOBS_SCOPE } from "./scope.ts";
import type { JobRun } from "./job-runs.ts";
import { findJob } from "./registry.ts";
import { runJob } from "./run-job.ts";

export interface TriggerJobInput {
  name: string;
  /** The process's database: the job's lock is taken on a connection of its own. */
  database: DatabaseAccess;
  logger: Logger;
  /** The capabilities a job may need (outbound HTTP, files, the vault, ACME, TLS). */
  deps?: JobDeps;
}

const auditTrigger = defineVerb<{ job: JobDefinition; run: JobRun }, void>({ scope: JOBS_SCOPE }, async (s, { job, run }) => {
  s.audit({
    action: "job.run",
    category: "jobs",
    level: run.outcome === "failed" ? "warning" : "info",
    entity_type: "job",
    entity_id: job.name,
    diff: { run_id: run.id, outcome: run.outcome, rows_touched: run.rows_touched, error: run.error },
  });
});

// defineRead for its access check without a transaction: a run is many short ones (each a verb that
// run-job.ts and the job call), held together only by the job's lock, and the audit follows the run.
export const triggerJob = defineRead<TriggerJobInput, JobRun>({ scope: JOBS_SCOPE }, async (ctx, input) => {
  const job = findJob(input.name);
  if (!job) throw ApiError.notFound("Job", input.name);
  const run = await runJob({ ctx, lock: advisoryLockFor(input.database), logger: input.logger, deps: input.deps }, job, "manual");
  await auditTrigger({ ctx, input: { job, run } });
  if (run.outcome === "skipped")
    throw ApiError.conflict(`Job ${job.name} is already running (its lock ${job.lockKey} is held); this request was recorded as skipped.`, {
      run,
    });
  return run;
});
