// GET /admin/jobs: each scheduled job with its schedule, next run (from the injected clock) and last
// run, plus the most recent runs of all jobs (or of one).
import { defineRead } from "../verb.ts";
import { JOBS_SCOPE } from "./job.ts";
import { type JobRun, lastRuns, recentRuns } from "./job-runs.ts";
import { JOBS } from "./registry.ts";
import { nextRunAt } from "./schedule.ts";

export interface JobView {
  name: string;
  description: string;
  schedule: string;
  timezone: "UTC";
  lock_key: string;
  next_run_at: string | null;
  last_run: JobRun | null;
}

export const listJobs = defineRead<{ limit: number; job?: string | undefined }, { jobs: JobView[]; runs: JobRun[] }>({ scope: JOBS_SCOPE }, async (ctx, input) => {
  const now = ctx.clock.now();
  const last = await lastRuns(ctx.db, JOBS.map((j) => j.name));
  const jobs = JOBS.map((j) => ({
    name: j.name,
    description: j.description,
    schedule: j.schedule,
    timezone: "UTC" as const,
    lock_key: j.lockKey,
    next_run_at: nextRunAt(j.schedule, now)?.toISOString() ?? null,
    last_run: last.get(j.name) ?? null,
  }));
  return { jobs, runs: await recentRuns(ctx.db, input.limit, input.job) };
});
