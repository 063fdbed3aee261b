// GET /admin/jobs: each scheduled job with its schedule (a setting's, for db_backup), next run (from the injected clock) and last
// run, plus the most recent runs of all jobs (or of one).
import { defineRead } from "../verb.ts";
import { JOBS_SCOPE } from "./scope.ts";
import { type JobRun, lastRuns, recentRuns } from "./job-runs.ts";
import { JOBS } from "./registry.ts";
import { nextRunAt } from "./schedule.ts";

export interface JobView {
  name: string;
  description: string;
  /** null: the job's schedule setting disables its slots (it still runs on demand). */
  schedule: string | null;
  timezone: "UTC";
  lock_key: string;
  next_run_at: string | null;
  last_run: JobRun | null;
}

export const listJobs = defineRead<{ limit: number; job?: string | undefined }, { jobs: JobView[]; runs: JobRun[] }>(
  { scope: JOBS_SCOPE },
  async (ctx, input) => {
    const now = ctx.clock.now();
    const last = await lastRuns(
      ctx.db,
      JOBS.map((j) => j.name),
    );
    const jobs: JobView[] = [];
    for (const j of JOBS) {
      const schedule = j.scheduleSetting ? await j.scheduleSetting(ctx.db) : j.schedule;
      jobs.push({
        name: j.name,
        description: j.description,
        schedule,
        timezone: "UTC",
        lock_key: j.lockKey,
        next_run_at: schedule ? (nextRunAt(schedule, now)?.toISOString() ?? null) : null,
        last_run: last.get(j.name) ?? null,
      });
    }
    return { jobs, runs: await recentRuns(ctx.db, input.limit, input.job) };
  },
);
