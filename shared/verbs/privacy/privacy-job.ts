// The daily privacy job (issue 17 item 3): a snapshot of the network as discovery knows it (so the
// history has a point every day even without scans), then the snapshots older than 90 days go, except
// the newest one, which the reads stand on; and of each past day only the last snapshot is kept (the one
// the history per day shows), since a profile scanning every few minutes snapshots as often. Runs under
// the scheduler's advisory lock like every job.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import type { JobDefinition, JobResult, JobContext } from "../jobs/job.ts";
import { defineVerb } from "../verb.ts";
import { REFRESH_PRIVACY } from "./scopes.ts";
import { takePrivacySnapshot } from "./take-snapshot.ts";

export const SNAPSHOT_KEEP_DAYS = 90;
const DAY_MS = 86_400_000;

export const prunePrivacySnapshots = defineVerb({ scope: REFRESH_PRIVACY }, async (s) => {
  const before = new Date(s.now.getTime() - SNAPSHOT_KEEP_DAYS * DAY_MS);
  const today = `${s.now.toISOString().slice(0, 10)}T00:00:00Z`;
  const aged = await queryRows<{ id: number }>(
    s.tx,
    sql`
    delete from privacy_snapshots where taken_at < ${before.toISOString()}::timestamptz
      and id <> (select id from privacy_snapshots order by taken_at desc, id desc limit 1)
    returning id`,
  );
  const thinned = await queryRows<{ id: number }>(
    s.tx,
    sql`
    delete from privacy_snapshots p where p.taken_at < ${today}::timestamptz
      and exists (select 1 from privacy_snapshots later where later.taken_at < ${today}::timestamptz
        and (later.taken_at at time zone 'UTC')::date = (p.taken_at at time zone 'UTC')::date
        and (later.taken_at, later.id) > (p.taken_at, p.id))
    returning id`,
  );
  return { deleted: aged.length, thinned: thinned.length, before: before.toISOString() };
});

export async function runPrivacyJob({ ctx }: JobContext): Promise<JobResult> {
  const snapshot = await takePrivacySnapshot({ ctx, input: { trigger: "schedule" } });
  const pruned = await prunePrivacySnapshots({ ctx });
  return {
    rows_touched: (snapshot.snapshot_id === null ? 0 : 1) + pruned.deleted + pruned.thinned,
    detail: {
      enabled: snapshot.enabled,
      snapshot_id: snapshot.snapshot_id,
      score: snapshot.score,
      grade: snapshot.grade,
      new_findings: snapshot.new_findings,
      pruned: pruned.deleted,
      pruned_before: pruned.before,
      thinned: pruned.thinned,
    },
  };
}

export const privacyJob: JobDefinition = {
  name: "privacy_analysis",
  lockKey: "privacy_analysis_job",
  schedule: "15 4 * * *",
  description: `Privacy and threat analysis: a daily snapshot of the network's score and findings, and snapshots older than ${SNAPSHOT_KEEP_DAYS} days pruned (the newest always kept), past days thinned to their last snapshot.`,
  run: (env) => runPrivacyJob(env),
};
