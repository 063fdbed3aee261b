// Runs the probes the server assigns (probe.assign) and answers each with one probe.result: at most
// max_concurrent at once (more are answered "rejected"), none past its deadline_at, probe.cancel stops
// one ("cancelled"). A run id seen lately is not run twice (the server re-sends assignments after a
// reconnect; the first run's result is in the spool already).
import type { AgentPayloadInput } from "../../shared/agents/payloads.ts";
import type { AgentLog } from "../log.ts";
import { type Check, type CheckResult, ProbeConfigError } from "./check.ts";
import { dnsCheck } from "./dns.ts";
import { httpCheck } from "./http.ts";
import { ICMP_UNSUPPORTED } from "./readiness.ts";
import { tcpCheck } from "./tcp.ts";

export type ProbeResult = AgentPayloadInput<"probe.result">;

const CHECKS: Record<string, { run: Check; timeoutS: number }> = {
  tcp: { run: tcpCheck, timeoutS: 1 },
  http: { run: httpCheck, timeoutS: 10 },
  dns: { run: dnsCheck, timeoutS: 5 },
};
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
    const answer = (outcome: ProbeResult["outcome"], msg: string, result?: CheckResult) =>
      this.#opts.report({
        ...base,
        outcome,
        up: result?.up ?? false,
        finished_at: (this.#opts.now?.() ?? new Date()).toISOString(),
        samples: result?.samples ?? [],
        msg: msg.slice(0, 2000),
        details: result?.details ?? null,
      });

    const checkType = String(p.check_type);
    const host = typeof p.host === "string" ? p.host : "";
    const config = typeof p.config === "object" && p.config !== null && !Array.isArray(p.config) ? (p.config as Record<string, unknown>) : {};
    const deadline = typeof p.deadline_at === "string" ? Date.parse(p.deadline_at) : NaN;
    if (checkType === "icmp") return answer("execution_error", `icmp is ${ICMP_UNSUPPORTED}`);
    const check = CHECKS[checkType];
    if (!check) return answer("execution_error", `check type ${checkType} is ${ICMP_UNSUPPORTED}`);
    if (!host) return answer("execution_error", "probe.assign names no host");
    if (this.#running.size >= this.maxConcurrent) return answer("rejected", `at capacity: ${this.maxConcurrent} probes already running`);
    const remaining = Number.isNaN(deadline) ? check.timeoutS * 1000 : deadline - now.getTime();
    if (remaining <= 0) return answer("execution_error", "the deadline passed before the probe started");
    const configured = typeof config.timeout === "number" && config.timeout > 0 ? config.timeout * 1000 : check.timeoutS * 1000;
    const timeoutMs = Math.max(1, Math.min(configured, remaining));

    const controller = new AbortController();
    this.#running.set(runId, controller);
    const deadlineTimer = setTimeout(() => controller.abort("deadline"), remaining);
    this.#opts.log.debug(`probe ${runId}: ${checkType} ${host}`);
    void check
      .run(host, config, controller.signal, timeoutMs)
      .then(
        (result) => {
          if (controller.signal.reason === "deadline") answer("execution_error", "the deadline passed while the probe ran", result);
          else if (controller.signal.aborted) answer("cancelled", `cancelled: ${String(controller.signal.reason)}`, result);
          else answer("completed", result.msg ?? (result.up ? "up" : "down"), result);
        },
        (e: unknown) => answer("execution_error", e instanceof ProbeConfigError ? e.message : `probe failed: ${(e as Error).message}`),
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
