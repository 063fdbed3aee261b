// The monitor runner (issue 12 item 2): a scheduler loop that claims due checks (FOR UPDATE SKIP
// LOCKED, so several sidecars share the work and none runs a check twice), runs at most `concurrency`
// at once, each inside its own time budget (a hanging target costs only its own check), and records the
// results in batches through the state machine (shared/verbs/monitors/run/record-results.ts).
// Monitors assigned to an agent are not checked here: their probe is queued on the agent
// (requestProbe) and the agent's answer is recorded when the link batch commits it. A multi-vantage
// monitor (docs/adr/0441) is checked here (when the sidecar is one of its points) and queued on each of
// its vantage agents; the recording path judges it by its quorum.
// LISTEN monitor_control wakes the loop at once ("check now", resume, create). stop() claims nothing
// more, waits for the checks in flight (each bounded by its timeout) and records their results; a
// sidecar killed outright loses only the checks in flight, which come due again next interval. A drain
// that waits longer than drainMs aborts the checks still running (they answer "timeout").
// Heartbeat (push) monitors are not claimed: a timer sweeps the ones whose deadline passed without a
// push (shared/verbs/monitors/push/sweep-deadlines.ts) and marks them down.
import { ApiError } from "../../shared/errors.ts";
import { effectiveConfig } from "../../shared/domain/monitors/config.ts";
import { requestProbe } from "../../shared/verbs/agents/request-probe.ts";
import { type ClaimedCheck, claimDueChecks } from "../../shared/verbs/monitors/run/claim-due.ts";
import { markProbeDispatch, markStaleProbes, markVantageDispatch } from "../../shared/verbs/monitors/run/probe-dispatch.ts";
import { type MonitorResult, recordCheckResults } from "../../shared/verbs/monitors/run/record-results.ts";
import { MONITOR_CONTROL_CHANNEL } from "../../shared/verbs/monitors/notify.ts";
import { sweepPushDeadlines } from "../../shared/verbs/monitors/push/sweep-deadlines.ts";
import { runtimeConfig } from "../../shared/verbs/monitors/secrets.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { databaseListener } from "../../runtime/listen.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import type { Worker } from "../../runtime/worker.ts";
import { checkBudget, runCheck } from "../../net/checks/run-check.ts";
import { PROBE_DEADLINE_SLACK_S } from "../../shared/domain/monitors/quorum.ts";
import { DEFAULT_MONITOR_POLICY, type OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import { readMonitorPolicy } from "../../shared/verbs/integrations/outbound-policy.ts";
import { defaultMonitorsOptions, type MonitorsWorkerOptions } from "./options.ts";

export interface MonitorsStats {
  in_flight: number;
  claimed: number;
  checked: number;
  recorded: number;
  probes_queued: number;
  buffered: number;
  dropped: number;
  /** Recent lags in ms (check start minus due time), oldest first. */
  lags_ms: number[];
}

export interface MonitorsWorker extends Worker {
  stats(): MonitorsStats;
  /** Runs one scheduler round now (tests). */
  tick(): Promise<void>;
  /** Records what is buffered now (tests, the drain). */
  flush(): Promise<void>;
  /** Marks down the push monitors whose deadline passed (the timer's round; tests). */
  sweepPushes(): Promise<void>;
}

export function monitorsWorker(
  runtime: Pick<NodeRuntime, "deps" | "database">,
  overrides: Partial<MonitorsWorkerOptions> = {},
): MonitorsWorker {
  const { deps } = runtime;
  const options: MonitorsWorkerOptions = {
    ...defaultMonitorsOptions(overrides.owner ?? `sidecar-${process.pid}-${Math.random().toString(36).slice(2, 8)}`),
    ...overrides,
  };
  const ctx = systemContext({ db: runtime.database.db, clock: deps.clock, random: deps.random });
  const listen = databaseListener(runtime.database);
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let buffer: MonitorResult[] = [];
  const lags: number[] = [];
  const counters = { claimed: 0, checked: 0, recorded: 0, probes_queued: 0, dropped: 0 };
  let running = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let staleTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let round: Promise<void> | undefined;
  let again = false;
  /** A manual round (tick()) is going on: freed slots do not start rounds of their own meanwhile. */
  let ticking = false;
  let flushing: Promise<void> | undefined;

  const noteLag = (ms: number) => {
    lags.push(ms);
    if (lags.length > options.lagWindow) lags.splice(0, lags.length - options.lagWindow);
  };

  const checkLocally = async (claimed: ClaimedCheck, policy: OutboundPolicy): Promise<void> => {
    let config: Record<string, unknown>;
    try {
      config = effectiveConfig(claimed.check_type, await runtimeConfig(deps.vault, claimed));
    } catch (e) {
      // A config this process cannot open (another vault key) is a failed check with the reason.
      buffer.push(
        resultOf(claimed, {
          up: false,
          latency_ms: null,
          samples: [{ metric: "avail", value: 0 }],
          msg: `cannot open the monitor's secrets: ${(e as Error).message}`,
        }),
      );
      return;
    }
    const outcome = await runCheck(
      { check_type: claimed.check_type, host: claimed.host, config },
      { pingCommand: options.pingCommand, signal: stopping.signal, policy, ...(options.resolve ? { resolve: options.resolve } : {}) },
    );
    counters.checked++;
    buffer.push(resultOf(claimed, outcome));
    if (buffer.length >= options.flushSize) void flush();
  };

  const resultOf = (claimed: ClaimedCheck, o: Pick<MonitorResult, "up" | "latency_ms" | "samples" | "msg">): MonitorResult => ({
    monitor_id: claimed.id,
    checked_at: deps.clock.now().toISOString(),
    up: o.up,
    latency_ms: o.latency_ms,
    samples: o.samples,
    msg: o.msg,
    source: "server",
  });

  /** Queues the check on `agentId`; answers null when queued, else the agent's refusal reason. */
  const probeOn = async (claimed: ClaimedCheck, agentId: number): Promise<string | null> => {
    try {
      const config = await runtimeConfig(deps.vault, claimed);
      const { budgetMs } = checkBudget({ check_type: claimed.check_type, config });
      await requestProbe({
        ctx,
        input: {
          agent_id: agentId,
          check_type: claimed.check_type,
          host: claimed.host,
          config,
          monitor_id: claimed.id,
          timeout_s: Math.min(300, Math.max(1, Math.ceil(budgetMs / 1000) + PROBE_DEADLINE_SLACK_S)),
        },
      });
      counters.probes_queued++;
      return null;
    } catch (e) {
      return e instanceof ApiError ? String(e.extra.reason ?? e.message) : String(e);
    }
  };

  /** Queues the check on its agent; a refusal is the monitor's probe status, not a failed check. */
  const queueProbe = async (claimed: ClaimedCheck): Promise<void> => {
    const reason = await probeOn(claimed, claimed.probe_agent_id!);
    if (reason === null) await markProbeDispatch({ ctx, input: { monitor_id: claimed.id, status: "queued", reason } });
    else await markProbeDispatch({ ctx, input: { monitor_id: claimed.id, status: "unavailable", reason } }).catch(() => {});
  };

  /** A multi-vantage monitor: checked here when the sidecar is a point, and queued on each vantage agent. */
  const checkFromVantages = async (claimed: ClaimedCheck, policy: OutboundPolicy): Promise<void> => {
    const release = !claimed.vantage_sidecar;
    await Promise.all([
      claimed.vantage_sidecar ? checkLocally(claimed, policy) : Promise.resolve(),
      ...claimed.vantage_agent_ids.map(async (agentId) => {
        const reason = await probeOn(claimed, agentId);
        const status = reason === null ? ("queued" as const) : ("unavailable" as const);
        await markVantageDispatch({ ctx, input: { monitor_id: claimed.id, agent_id: agentId, status, reason, release } });
      }),
    ]);
  };

  const begin = (claimed: ClaimedCheck, policy: OutboundPolicy): void => {
    noteLag(deps.clock.now().getTime() - claimed.due_at.getTime());
    const run =
      claimed.vantage_agent_ids.length > 0
        ? checkFromVantages(claimed, policy)
        : claimed.probe_agent_id !== null
          ? queueProbe(claimed)
          : checkLocally(claimed, policy);
    const work = run.catch((e: unknown) => deps.logger.warn("monitor check failed", { monitor_id: claimed.id, error: String(e) }));
    inFlight.add(work);
    void work.finally(() => {
      inFlight.delete(work);
      // A slot freed: fill it while checks are waiting.
      if (running && again && !ticking) schedule();
    });
  };

  /** One round: claim while there is room and work, bounded to a few claims per round. */
  const runRound = async (): Promise<void> => {
    for (let i = 0; i < 20 && running; i++) {
      const room = options.concurrency - inFlight.size;
      if (room <= 0) {
        again = true;
        return;
      }
      const want = Math.min(room, options.claimBatch);
      const claimed = await claimDueChecks({ ctx, input: { owner: options.owner, limit: want } });
      counters.claimed += claimed.length;
      // Read once per claim, so an administrator's change applies from the next round on.
      const policy = claimed.length ? await readMonitorPolicy(runtime.database.db) : DEFAULT_MONITOR_POLICY;
      for (const c of claimed) begin(c, policy);
      if (claimed.length < want) {
        again = false;
        return;
      }
    }
    again = true;
  };

  // A request for a round (a check-now notice, a poll, a freed slot) that comes while a round runs is
  // kept, not dropped: one more round follows, so a notice is never left waiting for the next poll.
  let requested = false;
  const schedule = (): void => {
    if (!running) return;
    if (round) {
      requested = true;
      return;
    }
    requested = false;
    round = runRound()
      .catch((e: unknown) => deps.logger.warn("monitor claim failed; retrying", { error: String(e) }))
      .finally(() => {
        round = undefined;
        if (requested) schedule();
      });
  };

  const flush = (): Promise<void> => {
    if (flushing) return flushing;
    if (buffer.length === 0) return Promise.resolve();
    const batch = buffer;
    buffer = [];
    flushing = recordCheckResults({ ctx, input: { results: batch } })
      .then((r) => void (counters.recorded += r.recorded))
      .catch((e: unknown) => {
        // Kept for the next flush (the database may be back); beyond the bound the oldest go.
        buffer = [...batch, ...buffer];
        if (buffer.length > options.maxBuffered) {
          counters.dropped += buffer.length - options.maxBuffered;
          buffer.splice(0, buffer.length - options.maxBuffered);
        }
        deps.logger.warn("recording monitor results failed; retrying", { error: String(e), buffered: buffer.length });
      })
      .finally(() => {
        flushing = undefined;
      });
    return flushing;
  };

  // Up to SWEEP_ROUNDS batches a round: a backlog (the sidecar was down) is worked off over a few rounds.
  const SWEEP_ROUNDS = 10;
  const sweepPushes = (): Promise<void> => {
    sweeping ??= (async () => {
      for (let i = 0; i < SWEEP_ROUNDS; i++) {
        const { recorded, skipped } = await sweepPushDeadlines({ ctx, input: { limit: options.pushSweepBatch } });
        if (recorded + skipped < options.pushSweepBatch) break;
      }
    })()
      .catch((e: unknown) => deps.logger.warn("push deadline sweep failed", { error: String(e) }))
      .finally(() => (sweeping = undefined));
    return sweeping;
  };

  return {
    name: "monitors",
    async start() {
      running = true;
      if (listen)
        unlisten = await listen(MONITOR_CONTROL_CHANNEL, () => schedule()).catch((e: unknown) => {
          deps.logger.warn("monitor_control LISTEN failed; polling only", { error: String(e) });
          return undefined;
        });
      pollTimer = setInterval(schedule, options.pollMs);
      flushTimer = setInterval(() => void flush(), options.flushMs);
      staleTimer = setInterval(
        () => void markStaleProbes({ ctx }).catch((e: unknown) => deps.logger.warn("marking stale probes failed", { error: String(e) })),
        options.staleProbeMs,
      );
      sweepTimer = setInterval(() => void sweepPushes(), options.pushSweepMs);
      schedule();
    },
    async stop() {
      running = false;
      clearInterval(pollTimer);
      clearInterval(flushTimer);
      clearInterval(staleTimer);
      clearInterval(sweepTimer);
      await sweeping;
      await unlisten?.().catch(() => {});
      await round;
      // Checks in flight finish within their budgets (or are cut at drainMs); then all they answered is recorded.
      const settled = Promise.allSettled([...inFlight]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([settled, new Promise<void>((r) => (timer = setTimeout(r, options.drainMs)))]);
      clearTimeout(timer);
      stopping.abort();
      await settled;
      await flushing;
      await flush();
      if (buffer.length) await flush();
    },
    stats: () => ({ in_flight: inFlight.size, buffered: buffer.length, ...counters, lags_ms: [...lags] }),
    async tick() {
      const wasRunning = running;
      running = true;
      ticking = true;
      try {
        await runRound();
        await Promise.allSettled([...inFlight]);
      } finally {
        running = wasRunning;
        ticking = false;
      }
    },
    flush: async () => {
      await flushing;
      await flush();
    },
    sweepPushes,
  };
}
