// The discovery_profiles job: every minute, under the scheduler's advisory lock, starts a "scheduled" job
// for each enabled, unpaused profile whose next_run_at is due, and advances next_run_at. Nothing starts
// while the fleet-wide pause holds (the slots are not made up afterwards: next_run_at moves on). A profile
// whose last job is still open is not stacked (its slot is skipped); a profile that no longer passes its
// checks is skipped and logged; when the open-scan limit is reached the profile stays due for the next
// minute. Each profile is its own verb (transaction).
import { and, asc, eq, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { discoveryProfiles, scanJobs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { OPEN_JOB_STATUSES } from "../../../schemas/discovery.ts";
import type { JobContext, JobDefinition, JobResult } from "../../jobs/job.ts";
import { throwIfStopped } from "../../jobs/job.ts";
import { defineVerb } from "../../verb.ts";
import { discoveryPaused } from "../run/pause-state.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { profileNextRun } from "./next-run.ts";
import { startProfileRun } from "./run-profile.ts";

/** At most this many profiles are started per run (the rest stay due for the next minute). */
const BATCH = 100;

type Outcome = { outcome: "started"; job_id: number } | { outcome: "skipped"; reason: string } | { outcome: "deferred"; reason: string };

/**
 * The targets were checked against SVC_DISCOVERY_ALLOWED_TARGETS when the profile was written; the
 * scheduler has no configuration of its own, so here only parsing and the cap are checked again (the
 * widest allowed set that still keeps a scan on IPv4).
 */
const ANY_IPV4 = ["0.0.0.0/0"];

const runOne = defineVerb<{ id: number }, Outcome>({ scope: WRITE_DISCOVERY }, async (s, { id }) => {
  const [p] = await s.tx.select().from(discoveryProfiles).where(eq(discoveryProfiles.id, id)).for("update", { skipLocked: true });
  if (!p?.enabled || p.paused_at || !p.next_run_at || p.next_run_at > s.now || !p.schedule_cron)
    return { outcome: "skipped", reason: "no longer due" };
  const advance = async () => {
    await s.tx
      .update(discoveryProfiles)
      .set({ next_run_at: profileNextRun(p, s.now), updated_at: s.now })
      .where(eq(discoveryProfiles.id, p.id));
  };
  const [open] = await s.tx
    .select({ id: scanJobs.id })
    .from(scanJobs)
    .where(and(eq(scanJobs.profile_id, p.id), inArray(scanJobs.status, [...OPEN_JOB_STATUSES])))
    .limit(1);
  if (open) {
    await advance();
    return { outcome: "skipped", reason: `job ${open.id} of this profile is still open` };
  }
  try {
    // Every refusal comes before the job's insert, audit and events: nothing to undo.
    const job = await startProfileRun(s, p, ANY_IPV4, "scheduled");
    return { outcome: "started", job_id: job.id };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.code === "RATE_LIMITED") return { outcome: "deferred", reason: e.message };
    await advance();
    return { outcome: "skipped", reason: e.message };
  }
});

export async function runDueProfiles({ ctx, logger, signal }: JobContext): Promise<JobResult> {
  if (await discoveryPaused(ctx.db)) {
    const now = ctx.clock.now();
    // The slots that pass during a pause are dropped, not replayed all at once on resume.
    const due = await dueProfiles(ctx, now);
    for (const id of due) await advanceOnly({ ctx, input: { id } });
    return { rows_touched: due.length, detail: { paused: true, skipped: due.length } };
  }
  const due = await dueProfiles(ctx, ctx.clock.now());
  const started: number[] = [];
  const skipped: { profile_id: number; reason: string }[] = [];
  const deferred: number[] = [];
  for (const id of due) {
    throwIfStopped(signal);
    const r = await runOne({ ctx, input: { id } });
    if (r.outcome === "started") started.push(r.job_id);
    else if (r.outcome === "deferred") deferred.push(id);
    else skipped.push({ profile_id: id, reason: r.reason });
  }
  if (skipped.length > 0) logger.warn("scheduled discovery profiles skipped", { skipped });
  return { rows_touched: started.length, detail: { started, skipped, deferred } };
}

async function dueProfiles(ctx: JobContext["ctx"], now: Date): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: discoveryProfiles.id })
    .from(discoveryProfiles)
    .where(
      and(
        eq(discoveryProfiles.enabled, true),
        isNull(discoveryProfiles.paused_at),
        isNotNull(discoveryProfiles.schedule_cron),
        lte(discoveryProfiles.next_run_at, now),
      ),
    )
    .orderBy(asc(discoveryProfiles.next_run_at), asc(discoveryProfiles.id))
    .limit(BATCH);
  return rows.map((r) => r.id);
}

const advanceOnly = defineVerb<{ id: number }, void>({ scope: WRITE_DISCOVERY }, async (s, { id }) => {
  const [p] = await s.tx.select().from(discoveryProfiles).where(eq(discoveryProfiles.id, id)).for("update", { skipLocked: true });
  if (!p?.next_run_at || p.next_run_at > s.now) return;
  await s.tx
    .update(discoveryProfiles)
    .set({ next_run_at: profileNextRun(p, s.now), updated_at: s.now })
    .where(eq(discoveryProfiles.id, id));
});

export const discoveryProfilesJob: JobDefinition = {
  name: "discovery_profiles",
  lockKey: "discovery_profiles_job",
  schedule: "* * * * *",
  description:
    "Starts a scheduled scan for each enabled, unpaused discovery profile whose cron slot is due (none while discovery is paused), and advances its next run.",
  run: runDueProfiles,
};
