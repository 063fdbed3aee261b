// Runs the probes the server assigns (probe.assign) and answers each with one probe.result: at most
// max_concurrent at once (more are answered "rejected"), none past its deadline_at, probe.cancel stops
// one ("cancelled"). A run id seen lately is not run twice (the server re-sends assignments after a
// reconnect; the first run's result is in the spool already).
// The checks are the sidecar's executors (net/checks/, one per type of the registry), run with only the
// assigned host reachable; their outcome is adapted to the probe.result frame here.
import type { AgentPayloadInput } from "../../shared/agents/payloads.ts";
import { CHECK_TYPE_REGISTRY, checkBudget, isCheckType, isProbeCheckType } from "../../shared/domain/monitors/check-types.ts";
import { effectiveConfig } from "../../shared/domain/monitors/config.ts";
import { EXECUTORS } from "../../net/checks/run-check.ts";
import type { CheckOutcome } from "../../net/checks/result.ts";
import type { AgentLog } from "../log.ts";
import { UNSUPPORTED } from "./readiness.ts";

export type ProbeResult = AgentPayloadInput<"probe.result">;
const RECENT_RUNS = 1024;
const RUN_ID = /^[0-9a-f]{32}$/;

export interface RunnerOptions {
  report: (result: ProbeResult) => void;
  log: AgentLog;
  now?: () => Date;
}

export class ProbeRunner {
  maxConcurrent = 20;
  readonly #running = new Map<string, AbortController>();
  readonly #recent = new Set<string>();
  readonly #opts: RunnerOptions;

  constructor(opts: RunnerOptions) {
    this.#opts = opts;
  }

  get active(): number {
    return this.#running.size;
  }

  assign(p: Record<string, unknown>): void {
    const now = this.#opts.now?.() ?? new Date();
    const runId = typeof p.run_id === "string" && RUN_ID.test(p.run_id) ? p.run_id : undefined;
    if (!runId) {
      this.#opts.log.warn("probe.assign without a valid run_id ignored");
      return;
    }
    if (this.#running.has(runId) || this.#recent.has(runId)) return;
    this.#remember(runId);
    const monitorId = typeof p.monitor_id === "number" ? p.monitor_id : null;
    const base = { run_id: runId, monitor_id: monitorId, started_at: now.toISOString() };
    const answer = (outcome: ProbeResult["outcome"], msg: string, result?: CheckOutcome) =>
      this.#opts.report({
        ...base,
        outcome,
        up: result?.up ?? false,
        finished_at: (this.#opts.now?.() ?? new Date()).toISOString(),
        samples: (result?.samples ?? []).map(({ metric, value }) => ({ metric, value })),
        msg: msg.slice(0, 2000),
        details: null,
      });

    const checkType = String(p.check_type);
    const host = typeof p.host === "string" ? p.host : "";
    const given =
      typeof p.config === "object" && p.config !== null && !Array.isArray(p.config) ? (p.config as Record<string, unknown>) : {};
    const deadline = typeof p.deadline_at === "string" ? Date.parse(p.deadline_at) : NaN;
    if (!isCheckType(checkType)) return answer("execution_error", `check type ${checkType} is ${UNSUPPORTED}`);
    // A push or group type has no runners, so no agent runs it (docs/adr/0434).
    if (!isProbeCheckType(checkType) || !CHECK_TYPE_REGISTRY[checkType].runners.includes("agent"))
      return answer("execution_error", `${checkType} is ${UNSUPPORTED}`);
    if (!host) return answer("execution_error", "probe.assign names no host");
    if (this.#running.size >= this.maxConcurrent) return answer("rejected", `at capacity: ${this.maxConcurrent} probes already running`);
    // The server sends the config as stored (only the keys given): the registry's defaults apply here, as in the sidecar.
    const config = effectiveConfig(checkType, given);
    const budget = checkBudget(checkType, config);
    const remaining = Number.isNaN(deadline) ? budget.budgetMs : deadline - now.getTime();
    if (remaining <= 0) return answer("execution_error", "the deadline passed before the probe started");
    const timeoutMs = Math.max(1, Math.min(budget.timeoutMs, remaining));

    const controller = new AbortController();
    this.#running.set(runId, controller);
    // The check's own budget ends it as a timeout (a down result); the server's deadline, if sooner, as an error.
    const deadlineTimer = setTimeout(
      () => controller.abort(budget.budgetMs < remaining ? "timeout" : "deadline"),
      Math.min(budget.budgetMs, remaining),
    );
    this.#opts.log.debug(`probe ${runId}: ${checkType} ${host}`);
    void EXECUTORS[checkType]({})({ check_type: checkType, host, config, hostOnly: true }, controller.signal, timeoutMs)
      .then(
        (result) => {
          if (controller.signal.reason === "deadline") answer("execution_error", "the deadline passed while the probe ran", result);
          else if (controller.signal.aborted && controller.signal.reason !== "timeout")
            answer("cancelled", `cancelled: ${String(controller.signal.reason)}`, result);
          else if (result.invalid_config) answer("execution_error", result.msg, result);
          else answer("completed", result.msg, result);
        },
        (e: unknown) => answer("execution_error", `probe failed: ${(e as Error).message}`),
      )
      .finally(() => {
        clearTimeout(deadlineTimer);
        this.#running.delete(runId);
      });
  }

  cancel(runId: unknown, reason: unknown): void {
    if (typeof runId === "string") this.#running.get(runId)?.abort(typeof reason === "string" ? reason : "cancelled");
  }

  /** The agent stops: every run ends as cancelled. */
  cancelAll(reason: string): void {
    for (const c of this.#running.values()) c.abort(reason);
  }

  #remember(runId: string): void {
    this.#recent.add(runId);
    if (this.#recent.size > RECENT_RUNS) this.#recent.delete(this.#recent.values().next().value!);
  }
}
