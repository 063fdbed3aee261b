// [admin] request and response shapes of /admin/jobs*: the scheduled jobs, their runs, running one now.
import * as v from "valibot";
import { JOB_OUTCOMES, JOB_TRIGGERS } from "../verbs/jobs/job-runs.ts";
import { JOBS } from "../verbs/jobs/registry.ts";
import { Limit } from "./list-query.ts";

export const JobRun = v.object({
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

export const Job = v.object({
  name: v.string(),
  description: v.string(),
  schedule: v.pipe(
    v.nullable(v.string()),
    v.description(
      "Cron pattern (minute hour day month weekday), read in UTC; db_backup follows backup_schedule, null when that disables it.",
    ),
  ),
  timezone: v.literal("UTC"),
  lock_key: v.pipe(v.string(), v.description("PostgreSQL advisory lock: pg_try_advisory_lock(hashtext(lock_key)).")),
  next_run_at: v.nullable(v.string()),
  last_run: v.nullable(JobRun),
});

const JOB_NAMES = JOBS.map((j) => j.name) as [string, ...string[]];
export const JobsQuery = v.object({ limit: Limit, job: v.optional(v.picklist(JOB_NAMES, `Must be one of: ${JOB_NAMES.join(", ")}.`)) });
export const JobList = v.object({ jobs: v.array(Job), runs: v.array(JobRun) });
export const JobNameParam = v.object({ name: v.pipe(v.string(), v.maxLength(100)) });
