// The CVE feed sync as a job (cve_sync): the scheduler fires it hourly and it syncs when the last attempt
// is older than cve_sync_interval_hours (default 24: daily), under its advisory lock like every job;
// POST /cve/sync starts the same job in the background (startCveSync) and answers once the lock is held.
// After the import, new findings go out as alerts (notify.ts).
import { advisoryLockFor } from "../../db/advisory-lock.ts";
import type { DatabaseAccess } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import type { Lifecycle } from "../../lifecycle.ts";
import type { Logger } from "../../logger.ts";
import type { OutboundHttp } from "../../net/outbound.ts";
import { readSetting } from "../../settings/read.ts";
import { SYSTEM_ACTOR } from "../actor.ts";
import type { JobDefinition, JobResult } from "../jobs/job.ts";
import type { JobRun } from "../jobs/job-runs.ts";
import { runJob } from "../jobs/run-job.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { readFeedRow } from "./feed-state.ts";
import { notifyNewFindings } from "./notify.ts";
import type { CveFeedFiles } from "./feed-files.ts";
import { CveSyncError, syncCveFeed } from "./sync.ts";

export const CVE_SCOPE_SYNC = "admin:*";

async function runSync(
  ctx: VerbContext,
  deps: { outbound: OutboundHttp; cveFeed?: CveFeedFiles | undefined },
  logger: Logger,
  signal?: AbortSignal,
): Promise<JobResult> {
  const result = await syncCveFeed({ ctx, outbound: deps.outbound, files: deps.cveFeed, logger, signal });
  const notified = await notifyNewFindings(ctx, { generation: result.generation });
  const c = result.counts;
  return {
    rows_touched: c.inserted + c.updated + c.removed,
    detail: {
      generation: result.generation,
      sources: result.sources,
      ...c,
      invalid_examples: result.invalid_examples,
      alerts: notified.alerts,
      findings_notified: notified.findings,
    },
  };
}

export const cveSyncJob: JobDefinition = {
  name: "cve_sync",
  lockKey: "cve_sync_job",
  schedule: "47 * * * *",
  description:
    "Imports the CVE feed (NVD CVE API 2.0 JSON) from cve_feed_sources when the last attempt is older than cve_sync_interval_hours, then alerts new findings.",
  async run({ ctx, logger, signal, deps }) {
    if (!(await readSetting(ctx.db, "cve_enabled"))) return { rows_touched: 0, detail: { skipped: "cve_enabled is false" } };
    if ((await readSetting(ctx.db, "cve_feed_sources")).length === 0)
      return { rows_touched: 0, detail: { skipped: "no cve_feed_sources configured" } };
    const hours = await readSetting(ctx.db, "cve_sync_interval_hours");
    const last = (await readFeedRow(ctx.db))?.last_attempt_at;
    // A few minutes' slack so the hourly slot after a 24 h-old attempt runs instead of waiting another hour.
    if (last && ctx.clock.now().getTime() - last.getTime() < hours * 3600_000 - 10 * 60_000)
      return { rows_touched: 0, detail: { skipped: "not due", last_attempt_at: last.toISOString() } };
    if (!deps) throw new CveSyncError("The CVE sync needs the process's outbound HTTP and feed files.");
    return runSync(ctx, deps, logger, signal);
  },
};

/** The job as POST /cve/sync runs it: now, whatever the interval. */
const manualSyncJob: JobDefinition = { ...cveSyncJob, run: ({ ctx, logger, signal, deps }) => runSync(ctx, deps!, logger, signal) };

export interface StartSyncInput {
  database: DatabaseAccess;
  outbound: OutboundHttp;
  cveFeed?: CveFeedFiles | undefined;
  logger: Logger;
  /** The process's lifecycle (Node): the run counts as in flight, and stops at its next batch once the process drains. */
  lifecycle?: Lifecycle | undefined;
}

const auditStart = defineVerb<{ run: JobRun }, void>({ scope: CVE_SCOPE_SYNC }, async (s, { run }) => {
  s.audit({
    action: "cve.sync_requested",
    category: "jobs",
    level: "info",
    entity_type: "job",
    entity_id: "cve_sync",
    diff: { run_id: run.id },
  });
});

/**
 * POST /cve/sync: takes the job's lock and starts the sync in the background, answering once the run
 * is recorded; 409 when a sync already holds the lock, 409 too with no source configured.
 */
export const startCveSync = defineRead<StartSyncInput, { run_id: number; started_at: string; sources: number }>(
  { scope: CVE_SCOPE_SYNC },
  async (ctx, input) => {
    const sources = await readSetting(ctx.db, "cve_feed_sources");
    if (sources.length === 0)
      throw ApiError.conflict(
        "No CVE feed source is configured: set cve_feed_sources (PUT /api/v1/settings) to file paths or http(s) URLs of NVD CVE API 2.0 JSON.",
      );
    // The run outlives the request: its own connection lease, released when it ends.
    const lease = input.database.lease();
    const runCtx: VerbContext = { ...ctx, db: lease.db, actor: ctx.actor ?? SYSTEM_ACTOR };
    // A drain waits for the run (it is in flight) and asks it to stop at its next batch boundary.
    const leave = input.lifecycle?.enter();
    const stop = new AbortController();
    const watch = setInterval(() => {
      if (input.lifecycle?.state === "stopping") stop.abort();
    }, 500);
    const done = () => {
      clearInterval(watch);
      leave?.();
      return lease.release();
    };
    const started = new Promise<JobRun>((resolve) => {
      void runJob(
        {
          ctx: runCtx,
          lock: advisoryLockFor(input.database),
          logger: input.logger,
          signal: stop.signal,
          deps: { outbound: input.outbound, cveFeed: input.cveFeed, database: input.database },
          onStart: resolve,
        },
        manualSyncJob,
        "manual",
      )
        .then(resolve, (e: unknown) => {
          input.logger.error("cve sync could not run", { error: e instanceof Error ? e.message : String(e) });
          resolve({
            id: 0,
            job: "cve_sync",
            trigger: "manual",
            started_at: ctx.clock.now().toISOString(),
            finished_at: null,
            outcome: "failed",
            rows_touched: null,
            detail: null,
            error: String(e),
          });
        })
        .finally(done);
    });
    const run = await started;
    if (run.outcome === "skipped")
      throw ApiError.conflict("A CVE sync is already running; this request was recorded as skipped.", { run_id: run.id });
    if (run.outcome !== "running")
      throw new ApiError("INTERNAL_SERVER_ERROR", `The CVE sync could not start: ${run.error ?? "unknown error"}`);
    await auditStart({ ctx, input: { run } });
    return { run_id: run.id, started_at: run.started_at, sources: sources.length };
  },
);
