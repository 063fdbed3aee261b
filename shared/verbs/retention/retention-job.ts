// The retention job (spec 2.6, 6.7): daily at 03:30 UTC under the advisory lock retention_job. First
// expires what is older than telemetry_warm_days (all three tables), then downsamples live metrics in
// place and collapses agent samples into their hourly table for the band between hot and warm. Every
// batch is one short statement (see batches.ts): stopped or killed between or inside batches it loses
// nothing, and the next run finishes; run twice at the same instant, the second run changes nothing.
import { sql } from "drizzle-orm";
import { readSetting } from "../../settings/read.ts";
import type { JobContext, JobDefinition, JobResult } from "../jobs/job.ts";
import { collapseAgentSamples } from "./agent-samples.ts";
import { BatchBudget, DEFAULT_BATCH_ROWS, deleteInBatches } from "./batches.ts";
import { retentionCutoffs } from "./cutoffs.ts";
import { downsampleLiveMetrics } from "./live-metrics.ts";
import { rollupMonitorUptime } from "./monitor-uptime.ts";

export interface RetentionOptions {
  /** Rows per batch (default 50,000). */
  batchRows?: number;
  /** Stop after this many batches, as if killed there (tests). */
  maxBatches?: number;
}

export async function runRetention({ ctx, signal }: JobContext, opts: RetentionOptions = {}): Promise<JobResult> {
  const rows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  const budget = new BatchBudget(opts.maxBatches, signal);
  const hotDays = await readSetting(ctx.db, "telemetry_hot_days");
  const warmDays = await readSetting(ctx.db, "telemetry_warm_days");
  const c = retentionCutoffs(ctx.clock.now(), hotDays, warmDays);

  const expired = {
    hardware_live_metrics: await deleteInBatches(
      ctx,
      {
        table: "hardware_live_metrics",
        key: "id",
        ts: "ts",
        expired: sql`ts < ${c.warm}::timestamptz and (source <> 'hourly_agg' or ts < ${c.warmHour}::timestamptz)`,
      },
      rows,
      budget,
    ),
    agent_host_samples: await deleteInBatches(
      ctx,
      { table: "agent_host_samples", key: "id", ts: "ts", expired: sql`ts < ${c.warm}::timestamptz` },
      rows,
      budget,
    ),
    // One row per check result has no key of its own; ctid names the row for the batch's delete. Uptime
    // outlives the samples: it is kept in the daily rollup.
    monitor_samples: await deleteInBatches(
      ctx,
      { table: "monitor_samples", key: "ctid", ts: "ts", expired: sql`ts < ${c.warm}::timestamptz` },
      rows,
      budget,
    ),
    // Settled alerts go with their deliveries and attempts (cascade); one still being delivered, held for a
    // digest (adr/0450) or escalating (adr/0448) stays.
    notification_alerts: await deleteInBatches(
      ctx,
      {
        table: "notification_alerts",
        key: "id",
        ts: "occurred_at",
        expired: sql`occurred_at < ${c.warm}::timestamptz and state <> 'waiting'
          and not exists (select 1 from notification_deliveries d where d.alert_id = notification_alerts.id and d.state in ('pending', 'retrying', 'held'))
          and not exists (select 1 from notification_escalations e where e.alert_id = notification_alerts.id and e.state = 'active')`,
      },
      rows,
      budget,
    ),
    // A status page subscriber's finished messages (docs/adr/0458) have no alert to go with: they expire on
    // their own once delivered or dead; one still being delivered stays.
    subscriber_deliveries: await deleteInBatches(
      ctx,
      {
        table: "notification_deliveries",
        key: "id",
        ts: "updated_at",
        expired: sql`subscriber_id is not null and state in ('delivered', 'dead') and updated_at < ${c.warm}::timestamptz`,
      },
      rows,
      budget,
    ),
    // An event rule's finished deliveries (docs/adr/0488) likewise: delivered or dead, past the warm window.
    event_deliveries: await deleteInBatches(
      ctx,
      {
        table: "notification_deliveries",
        key: "id",
        ts: "updated_at",
        expired: sql`event is not null and state in ('delivered', 'dead') and updated_at < ${c.warm}::timestamptz`,
      },
      rows,
      budget,
    ),
    // The scheduler's run log: discovery's every-minute job alone writes 525,600 rows a year.
    job_runs: await deleteInBatches(
      ctx,
      { table: "job_runs", key: "id", ts: "started_at", expired: sql`started_at < ${c.warm}::timestamptz and outcome <> 'running'` },
      rows,
      budget,
    ),
    // Closed scan jobs go with their results, logs and LLDP neighbours (cascade), except the newest completed
    // job of each profile (or of the same targets and agent): the baseline the next run's drift compares with.
    scan_jobs: await deleteInBatches(
      ctx,
      {
        table: "scan_jobs",
        key: "id",
        ts: "completed_at",
        expired: sql`completed_at < ${c.warm}::timestamptz and status in ('completed', 'failed', 'cancelled')
          and (status <> 'completed' or exists (select 1 from scan_jobs n where n.status = 'completed' and n.completed_at > scan_jobs.completed_at
            and case when scan_jobs.profile_id is not null then n.profile_id = scan_jobs.profile_id
              else n.profile_id is null and n.targets = scan_jobs.targets and n.scan_agent_id is not distinct from scan_jobs.scan_agent_id end))`,
      },
      rows,
      budget,
    ),
    agent_host_samples_hourly: await deleteInBatches(
      ctx,
      { table: "agent_host_samples_hourly", key: "agent_id, hour", ts: "hour", expired: sql`hour < ${c.warmHour}::timestamptz` },
      rows,
      budget,
    ),
  };
  const liveMetrics = await downsampleLiveMetrics(ctx, c, rows, budget);
  const agentSamples = await collapseAgentSamples(ctx, c, rows, budget);
  const monitorUptime = await rollupMonitorUptime(ctx, ctx.clock.now(), rows, budget);

  const deleted = Object.values(expired).reduce((s, e) => s + e.deleted, 0);
  const complete =
    Object.values(expired).every((e) => e.complete) && liveMetrics.complete && agentSamples.complete && monitorUptime.complete;
  return {
    rows_touched:
      deleted +
      liveMetrics.raw_rows +
      liveMetrics.hourly_rows_written +
      liveMetrics.hourly_rows_merged +
      agentSamples.raw_rows +
      agentSamples.hourly_rows +
      monitorUptime.daily_rows +
      monitorUptime.minute_rows_deleted,
    detail: {
      hot_days: hotDays,
      warm_days: warmDays,
      cutoffs: c,
      expired: Object.fromEntries(Object.entries(expired).map(([k, e]) => [k, e.deleted])),
      live_metrics: {
        raw_rows: liveMetrics.raw_rows,
        hourly_rows_written: liveMetrics.hourly_rows_written,
        hourly_rows_merged: liveMetrics.hourly_rows_merged,
      },
      agent_samples: { raw_rows: agentSamples.raw_rows, hourly_rows: agentSamples.hourly_rows },
      monitor_uptime: {
        days_rolled: monitorUptime.days_rolled,
        daily_rows: monitorUptime.daily_rows,
        minute_rows_deleted: monitorUptime.minute_rows_deleted,
      },
      batches: budget.used,
      complete,
    },
  };
}

export const retentionJob: JobDefinition = {
  name: "retention",
  lockKey: "retention_job",
  schedule: "30 3 * * *",
  description:
    "Telemetry lifecycle: hourly averages between telemetry_hot_days and telemetry_warm_days, deletion past warm (monitor samples too; their uptime stays in the daily rollup).",
  run: (env) => runRetention(env),
};
