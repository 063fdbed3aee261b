// /admin/jobs (ours, not in the catalogue; docs/architecture.md, API contracts): the scheduled jobs with their last runs, and
// running one now under its advisory lock.
import type { Hono } from "hono";
import * as v from "valibot";
import { Limit } from "../../../shared/schemas/list-query.ts";
import { JOB_OUTCOMES, JOB_TRIGGERS } from "../../../shared/verbs/jobs/job-runs.ts";
import { listJobs } from "../../../shared/verbs/jobs/list-jobs.ts";
import { JOBS } from "../../../shared/verbs/jobs/registry.ts";
import { triggerJob } from "../../../shared/verbs/jobs/trigger-job.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const JobRun = v.object({
  id: v.number(),
  job: v.string(),
  trigger: v.picklist(JOB_TRIGGERS),
  started_at: v.string(),
  finished_at: v.nullable(v.string()),
  outcome: v.picklist(JOB_OUTCOMES),
  rows_touched: v.nullable(v.number()),
  detail: v.nullable(v.record(v.string(), v.unknown())),
  error: v.nullable(v.string()),
});

const Job = v.object({
  name: v.string(),
  description: v.string(),
  schedule: v.pipe(v.nullable(v.string()), v.description("Cron pattern (minute hour day month weekday), read in UTC; db_backup follows backup_schedule, null when that disables it.")),
  timezone: v.literal("UTC"),
  lock_key: v.pipe(v.string(), v.description("PostgreSQL advisory lock: pg_try_advisory_lock(hashtext(lock_key)).")),
  next_run_at: v.nullable(v.string()),
  last_run: v.nullable(JobRun),
});

const JOB_NAMES = JOBS.map((j) => j.name) as [string, ...string[]];

export function jobsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/admin/jobs", tag: "admin", scope: listJobs.scope,
      summary: "Scheduled jobs (analytics, retention): schedule, next run, last run; and the recent runs, newest first",
      description: "`limit` (default 25, at most 100) bounds `runs`; `job` keeps only that job's runs. Outcomes: running, success, failed, skipped (another run held the lock).",
      query: v.object({ limit: Limit, job: v.optional(v.picklist(JOB_NAMES, `Must be one of: ${JOB_NAMES.join(", ")}.`)) }),
      response: { schema: v.object({ jobs: v.array(Job), runs: v.array(JobRun) }) },
    },
    async (c, { query }) => c.json(await listJobs({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/jobs/:name/run", tag: "admin", scope: triggerJob.scope,
      summary: "Run a job now under its advisory lock and answer the run record",
      description:
        "Runs to the end before answering. A job that fails answers 200 with outcome \"failed\" and its error. 409 when another run holds the job's lock (the attempt is recorded as skipped and returned in `run`). Audited.",
      params: v.object({ name: v.pipe(v.string(), v.maxLength(100)) }),
      response: { schema: JobRun },
      errors: [409],
    },
    async (c, { params }) => {
      const deps = c.get("deps");
      return c.json(await triggerJob({ ctx: verbContext(c), input: { name: params.name, database: deps.database, logger: deps.logger, deps } }));
    },
  );
}
