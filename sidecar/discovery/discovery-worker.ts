// The discovery worker (issue 13 items 1 and 4): claims queued server jobs (FOR UPDATE SKIP LOCKED, at
// most `concurrency` at once, none while discovery is paused) and runs each with the runner of its scan
// type: docker, lldp and opnsense have their own, everything else is the engine's. LISTEN discovery_control wakes
// it at once for a queued job and aborts a cancelled one (within a second: runScan closes its sockets and
// children on abort); the poll is the safety net under a missed notice. The job ends completed, or failed
// with the reason; a cancelled job is left as the cancel verb set it. The drain aborts every job and
// marks it failed "shutdown". It also probes the scan tools' readiness at start and every readinessMs,
// recovers jobs a dead sidecar left running, and serves agents' discovery (agent-jobs.ts).
import { SOLO_SCAN_TYPES } from "../../shared/domain/discovery/scan-types.ts";
import { FirewallError } from "../../shared/verbs/settings/firewall-api.ts";
import { claimScanJobs } from "../../shared/verbs/discovery/run/claim-jobs.ts";
import { completeScanJob, failScanJob } from "../../shared/verbs/discovery/run/finish.ts";
import { readJobStatuses } from "../../shared/verbs/discovery/run/job-status.ts";
import { storeDiscoveryReadiness } from "../../shared/verbs/discovery/run/readiness.ts";
import { recoverScanJobs } from "../../shared/verbs/discovery/run/recover.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { databaseListener } from "../../runtime/listen.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import type { Worker } from "../../runtime/worker.ts";
import type { DiscoveryHandlers } from "../agents/discovery-handlers.ts";
import { agentDiscovery } from "./agent-jobs.ts";
import { runDockerJob } from "./docker/run-docker-job.ts";
import { probeDiscoveryReadiness } from "./engine/readiness.ts";
import { engineRunner, PlanError } from "./engine-runner.ts";
import { openJobRun } from "./job-run.ts";
import type { JobRunner, ScanJobRow } from "./job-runner.ts";
import { runLldpJob } from "./lldp/run-lldp-job.ts";
import { opnsenseRunner } from "./opnsense/run-opnsense-job.ts";
import { defaultDiscoveryOptions, type DiscoveryWorkerOptions } from "./options.ts";

export const DISCOVERY_CONTROL_CHANNEL = "discovery_control";

export interface DiscoveryWorker extends Worker {
  /** Runs one claim round now (tests). */
  tick(): Promise<void>;
  /** Ids of the jobs this worker runs now. */
  running(): number[];
  /** Resolves when the job (if this worker runs it) has ended and its end state is written. */
  settled(jobId: number): Promise<void>;
  /** Probes the scan tools now and stores the answer. */
  probeReadiness(): Promise<void>;
}

export interface DiscoveryWorkerOverrides extends Partial<DiscoveryWorkerOptions> {
  /** Runners by scan type, over the built-in ones (tests). */
  runners?: Partial<Record<string, JobRunner>>;
  /** The agent links' discovery entry points, when this process holds agent links. */
  agentLinks?: DiscoveryHandlers;
}

type StopReason = "cancel" | "shutdown";

interface Held {
  controller: AbortController;
  done: Promise<void>;
}

export function discoveryWorker(
  runtime: Pick<NodeRuntime, "deps" | "database">,
  overrides: DiscoveryWorkerOverrides = {},
): DiscoveryWorker {
  const { deps } = runtime;
  const { runners: runnerOverrides, agentLinks, ...rest } = overrides;
  const options: DiscoveryWorkerOptions = {
    ...defaultDiscoveryOptions(
      rest.owner ?? `sidecar-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
      deps.config.SVC_DISCOVERY_CONCURRENCY,
    ),
    ...rest,
  };
  const ctx = systemContext({ db: runtime.database.db, clock: deps.clock, random: deps.random });
  const listen = databaseListener(runtime.database);
  const held = new Map<number, Held>();
  const engine = engineRunner(runtime.database.db, options);
  const runners: Record<string, JobRunner> = {
    docker: runDockerJob,
    lldp: runLldpJob,
    opnsense: opnsenseRunner(deps.outbound),
    ...(runnerOverrides as Record<string, JobRunner>),
  };
  const agents = agentLinks ? agentDiscovery({ ctx, logger: deps.logger, links: agentLinks, owner: options.owner }) : undefined;
  let running = false;
  let round: Promise<void> | undefined;
  let again = false;
  const timers: NodeJS.Timeout[] = [];
  let unlisten: (() => Promise<void>) | undefined;

  const runnerOf = (job: ScanJobRow): JobRunner => {
    const solo = job.scan_types.find((t) => SOLO_SCAN_TYPES.has(t) || runners[t]);
    return (solo && runners[solo]) || engine;
  };

  const execute = async (job: ScanJobRow, controller: AbortController): Promise<void> => {
    const handle = openJobRun({ ctx, vault: deps.vault, logger: deps.logger }, job, controller.signal, options);
    let failure: { text: string; reason: string } | undefined;
    try {
      await runnerOf(job)(handle.run);
    } catch (e) {
      if (!controller.signal.aborted) {
        const reason = e instanceof PlanError ? "invalid_targets" : e instanceof FirewallError ? e.reason : "engine_error";
        failure = { text: String(e instanceof Error ? e.message : e), reason };
        handle.run.log("ERROR", "failed", failure.text);
      }
    }
    await handle.close();
    const why = controller.signal.reason as StopReason | undefined;
    if (why === "cancel") return; // the cancel verb already set it cancelled
    if (why === "shutdown") {
      await failScanJob({
        ctx,
        input: {
          job_id: job.id,
          error_text: "The sidecar shut down while the scan ran.",
          error_reason: "shutdown",
          claimed_by: options.owner,
        },
      });
      return;
    }
    if (failure) await failScanJob({ ctx, input: { job_id: job.id, error_text: failure.text, error_reason: failure.reason } });
    else await completeScanJob(ctx, deps.logger, { job_id: job.id });
  };

  const begin = (job: ScanJobRow): void => {
    const controller = new AbortController();
    const done = execute(job, controller)
      .catch((e: unknown) => deps.logger.error("discovery job failed to end", { job_id: job.id, error: String(e) }))
      .finally(() => {
        held.delete(job.id);
        if (running) schedule();
      });
    held.set(job.id, { controller, done });
  };

  const runRound = async (): Promise<void> => {
    for (let i = 0; i < 10 && running; i++) {
      const room = options.concurrency - held.size;
      if (room <= 0) return;
      const claimed = await claimScanJobs({ ctx, input: { owner: options.owner, limit: room } });
      for (const job of claimed) begin(job);
      if (claimed.length < room) return;
    }
  };

  const schedule = (): void => {
    if (!running) return;
    if (round) {
      again = true;
      return;
    }
    round = runRound()
      .catch((e: unknown) => deps.logger.warn("discovery claim failed; retrying", { error: String(e) }))
      .finally(() => {
        round = undefined;
        if (again) {
          again = false;
          schedule();
        }
      });
  };

  const stopJob = (jobId: number, reason: StopReason): void => {
    const job = held.get(jobId);
    if (job && !job.controller.signal.aborted) job.controller.abort(reason);
  };

  /** The safety net: a held job whose row is no longer running was cancelled (or deleted). */
  const sweepCancelled = async (): Promise<void> => {
    const ids = [...held.keys()];
    if (ids.length === 0) return;
    const statuses = await readJobStatuses({ ctx, input: { ids } });
    for (const id of ids) if (statuses.get(id) !== "running") stopJob(id, "cancel");
  };

  const onControl = (payload: string): void => {
    let message: { type?: unknown; job_id?: unknown };
    try {
      message = JSON.parse(payload) as typeof message;
    } catch {
      return;
    }
    if (message.type === "job_cancel" && typeof message.job_id === "number") stopJob(message.job_id, "cancel");
    agents?.onControl(message as Record<string, unknown>);
    if (message.type === "job_queued" || message.type === "resume" || message.type === "resumed") schedule();
  };

  const probeReadiness = async (): Promise<void> => {
    try {
      await storeDiscoveryReadiness({ ctx, input: await probeDiscoveryReadiness() });
    } catch (e) {
      deps.logger.warn("discovery readiness probe failed", { error: String(e) });
    }
  };

  const recover = (): void =>
    void recoverScanJobs({ ctx, input: { stale_ms: options.staleMs } })
      .then(({ recovered }) => recovered.length && deps.logger.warn("discovery jobs recovered as interrupted", { job_ids: recovered }))
      .catch((e: unknown) => deps.logger.warn("discovery recovery failed", { error: String(e) }));

  const every = (ms: number, fn: () => void): void => {
    const t = setInterval(fn, ms);
    t.unref();
    timers.push(t);
  };

  return {
    name: "discovery",
    async start() {
      running = true;
      if (listen)
        unlisten = await listen(DISCOVERY_CONTROL_CHANNEL, onControl).catch((e: unknown) => {
          deps.logger.warn("discovery_control LISTEN failed; polling only", { error: String(e) });
          return undefined;
        });
      agents?.start();
      every(options.pollMs, () => {
        schedule();
        void sweepCancelled().catch((e: unknown) => deps.logger.warn("discovery cancel sweep failed", { error: String(e) }));
        agents?.poll();
      });
      every(options.recoverMs, recover);
      every(options.readinessMs, () => void probeReadiness());
      void probeReadiness();
      recover();
      schedule();
    },
    async stop() {
      running = false;
      for (const t of timers.splice(0)) clearInterval(t);
      await unlisten?.().catch(() => {});
      await round;
      for (const id of held.keys()) stopJob(id, "shutdown");
      await Promise.allSettled([...held.values()].map((h) => h.done));
      await agents?.stop();
    },
    async tick() {
      const was = running;
      running = true;
      try {
        await runRound();
      } finally {
        running = was;
      }
    },
    running: () => [...held.keys()],
    settled: async (jobId) => {
      await held.get(jobId)?.done;
    },
    probeReadiness,
  };
}
