// The outlets of one running job (JobRun), buffered so a chatty runner costs few transactions: log
// entries are written in batches, progress at most every progressMs (the last report wins) and at least
// every heartbeatMs (the liveness recover.ts reads), findings when the runner hands a batch over. Once
// the job's signal aborts, findings are dropped: a cancelled job gets no results after its cancel.
import type { HostFinding } from "../../shared/domain/discovery/finding.ts";
import type { Logger } from "../../shared/logger.ts";
import { appendScanLogs, type ScanLogEntry } from "../../shared/verbs/discovery/run/append-logs.ts";
import { reportScanProgress } from "../../shared/verbs/discovery/run/progress.ts";
import { recordFindings } from "../../shared/verbs/discovery/results/record-findings.ts";
import type { VerbContext } from "../../shared/verbs/verb-context.ts";
import type { Vault } from "../../shared/vault/vault.ts";
import type { JobProgress, JobRun, ScanJobRow } from "./job-runner.ts";
import type { DiscoveryWorkerOptions } from "./options.ts";

export interface JobRunHandle {
  run: JobRun;
  /** Writes what is buffered (logs, the last progress) and stops the timers. */
  close(): Promise<void>;
  findingsRecorded(): number;
}

export function openJobRun(
  deps: { ctx: VerbContext; vault: Vault; logger: Logger },
  job: ScanJobRow,
  signal: AbortSignal,
  options: Pick<DiscoveryWorkerOptions, "progressMs" | "heartbeatMs" | "logsMs" | "logsBatch">,
): JobRunHandle {
  const { ctx, logger } = deps;
  let logs: ScanLogEntry[] = [];
  let logWrite: Promise<void> = Promise.resolve();
  let latest: JobProgress | undefined;
  let sentAt = Date.now();
  let dirty = false;
  let progressWrite: Promise<void> = Promise.resolve();
  let recorded = 0;

  const flushLogs = (): Promise<void> => {
    if (logs.length === 0) return logWrite;
    const batch = logs;
    logs = [];
    logWrite = logWrite.then(() =>
      appendScanLogs({ ctx, input: { entries: batch } }).then(
        () => undefined,
        (e: unknown) => logger.warn("scan log write failed", { job_id: job.id, entries: batch.length, error: String(e) }),
      ),
    );
    return logWrite;
  };

  const sendProgress = (): Promise<void> => {
    const p = latest;
    if (!p) return progressWrite;
    dirty = false;
    sentAt = Date.now();
    progressWrite = progressWrite.then(() =>
      reportScanProgress({
        ctx,
        input: { job_id: job.id, phase: p.phase, message: p.message, addresses_done: p.done, addresses_total: p.total },
      }).then(
        () => undefined,
        (e: unknown) => logger.warn("scan progress write failed", { job_id: job.id, error: String(e) }),
      ),
    );
    return progressWrite;
  };

  const timer = setInterval(
    () => {
      void flushLogs();
      if (dirty || Date.now() - sentAt >= options.heartbeatMs) void sendProgress();
    },
    Math.min(options.progressMs, options.logsMs),
  );
  timer.unref();

  const run: JobRun = {
    job,
    signal,
    vault: deps.vault,
    ctx,
    log(level, phase, message, details) {
      logs.push({ job_id: job.id, level, phase, message, details: details ?? null, at: new Date().toISOString() });
      if (logs.length >= options.logsBatch) void flushLogs();
    },
    progress(p) {
      latest = { ...p };
      dirty = true;
    },
    async recordHosts(findings: HostFinding[]) {
      if (signal.aborted || findings.length === 0) return;
      try {
        const out = await recordFindings({ ctx, input: { job_id: job.id, agent_id: null, findings } });
        recorded += out.recorded;
      } catch (e) {
        logger.warn("recording scan findings failed", { job_id: job.id, findings: findings.length, error: String(e) });
        run.log("ERROR", "results", `Recording ${findings.length} findings failed: ${String(e).slice(0, 300)}`);
      }
    },
  };

  return {
    run,
    async close() {
      clearInterval(timer);
      if (dirty && !signal.aborted) await sendProgress();
      await progressWrite;
      await flushLogs();
    },
    findingsRecorded: () => recorded,
  };
}
