// The job_runs table: one row per run (start, end, outcome, rows touched, detail), as admins see it,
// and the verbs that write it (run-job.ts calls them as whoever runs the job).
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { jobRuns } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { JOBS_SCOPE } from "./scope.ts";

export const JOB_TRIGGERS = ["schedule", "manual"] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];
export const JOB_OUTCOMES = ["running", "success", "failed", "skipped"] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

export interface JobRun {
  id: number;
  job: string;
  trigger: JobTrigger;
  started_at: string;
  finished_at: string | null;
  outcome: JobOutcome;
  rows_touched: number | null;
  detail: Record<string, unknown> | null;
  error: string | null;
}

type Row = typeof jobRuns.$inferSelect;

export function presentRun(r: Row): JobRun {
  return {
    id: r.id,
    job: r.job,
    trigger: r.trigger as JobTrigger,
    started_at: r.started_at.toISOString(),
    finished_at: r.finished_at?.toISOString() ?? null,
    outcome: r.outcome as JobOutcome,
    rows_touched: r.rows_touched,
    detail: (r.detail as Record<string, unknown> | null) ?? null,
    error: r.error,
  };
}

async function insertRun(db: Db, values: typeof jobRuns.$inferInsert): Promise<JobRun> {
  const [row] = await db.insert(jobRuns).values(values).returning();
  return presentRun(row!);
}

/**
 * A run begins (its lock is held): runs left "running" by a process that died are closed as failed,
 * since whoever holds the lock now knows they are over, and the new run is recorded as running.
 */
export const startRun = defineVerb<{ job: string; trigger: JobTrigger }, JobRun>(
  { scope: JOBS_SCOPE },
  async ({ tx, now }, { job, trigger }) => {
    await tx
      .update(jobRuns)
      .set({ outcome: "failed", finished_at: now, error: "Interrupted: the process running it stopped before it finished." })
      .where(and(eq(jobRuns.job, job), eq(jobRuns.outcome, "running")));
    return insertRun(tx, { job, trigger, started_at: now, outcome: "running" });
  },
);

export interface RunEnd {
  id: number;
  outcome: "success" | "failed";
  rows_touched?: number;
  detail: Record<string, unknown>;
  error?: string;
}

/** A run ends, finished now with its outcome. */
export const endRun = defineVerb<RunEnd, JobRun>({ scope: JOBS_SCOPE }, async ({ tx, now }, { id, ...values }) => {
  const [row] = await tx
    .update(jobRuns)
    .set({ ...values, finished_at: now })
    .where(eq(jobRuns.id, id))
    .returning();
  return presentRun(row!);
});

/** An attempt that found the lock held: recorded as a run that was skipped, started and finished now. */
export const recordSkippedRun = defineVerb<{ job: string; trigger: JobTrigger; reason: string }, JobRun>(
  { scope: JOBS_SCOPE },
  async ({ tx, now }, { job, trigger, reason }) =>
    insertRun(tx, { job, trigger, started_at: now, finished_at: now, outcome: "skipped", detail: { reason } }),
);

/** The latest run of each named job. */
export async function lastRuns(db: Db, jobs: readonly string[]): Promise<Map<string, JobRun>> {
  if (jobs.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([jobRuns.job])
    .from(jobRuns)
    .where(sql`${jobRuns.job} in ${jobs}`)
    .orderBy(jobRuns.job, desc(jobRuns.started_at), desc(jobRuns.id));
  return new Map(rows.map((r) => [r.job, presentRun(r)]));
}

export async function recentRuns(db: Db, limit: number, job?: string): Promise<JobRun[]> {
  const rows = await db
    .select()
    .from(jobRuns)
    .where(job ? eq(jobRuns.job, job) : undefined)
    .orderBy(desc(jobRuns.started_at), desc(jobRuns.id))
    .limit(limit);
  return rows.map(presentRun);
}
