// Runs one check of any type inside its time budget: the per-type timeout of the config (defaults of
// reference-contracts.md 1), enforced by an abort signal the check honours and, behind it, a hard stop
// that answers "timeout" even if a check ignored its signal. So a hanging target costs its own check
// its timeout and nothing else, and runCheck never throws.
import { dnsCheck } from "./dns.ts";
import { httpCheck } from "./http.ts";
import { icmpCheck } from "./icmp.ts";
import { gateCheck, type ReachOptions } from "./reach.ts";
import { type Check, type CheckOutcome, type CheckSpec, failed } from "./result.ts";
import { tcpCheck } from "./tcp.ts";

export type { CheckOutcome, CheckSpec };

/** Default timeouts in seconds and the upper bounds of the config rules. */
const TIMEOUTS: Record<string, { fallback: number; max: number }> = {
  http: { fallback: 10, max: 120 },
  tcp: { fallback: 1, max: 30 },
  icmp: { fallback: 1.5, max: 30 },
  dns: { fallback: 5, max: 30 },
};

export interface RunCheckOptions extends ReachOptions {
  /** The ping executable (tests: a missing one). */
  pingCommand?: string;
  /** Aborts the check early (the worker stopping). */
  signal?: AbortSignal;
}

function checkOf(type: string, options: RunCheckOptions): Check | undefined {
  if (type === "http") return httpCheck;
  if (type === "tcp") return tcpCheck;
  if (type === "dns") return dnsCheck;
  if (type === "icmp") return icmpCheck(options.pingCommand);
  return undefined;
}

/** The check's timeout (ms) and its whole budget (ms): icmp adds the 0.2 s between its packets. */
export function checkBudget(spec: CheckSpec): { timeoutMs: number; budgetMs: number } {
  const t = TIMEOUTS[spec.check_type] ?? { fallback: 10, max: 120 };
  const configured = spec.config.timeout;
  const seconds = typeof configured === "number" && configured > 0 ? Math.min(configured, t.max) : t.fallback;
  const timeoutMs = Math.round(seconds * 1000);
  if (spec.check_type !== "icmp") return { timeoutMs, budgetMs: timeoutMs };
  const count = typeof spec.config.packet_count === "number" ? Math.min(20, Math.max(1, spec.config.packet_count)) : 5;
  return { timeoutMs, budgetMs: timeoutMs + Math.ceil(0.2 * (count - 1) * 1000) + 1000 };
}

export async function runCheck(spec: CheckSpec, options: RunCheckOptions = {}): Promise<CheckOutcome> {
  const check = checkOf(spec.check_type, options);
  if (!check) return failed(`unknown check type ${spec.check_type}`);
  const { timeoutMs, budgetMs } = checkBudget(spec);
  const controller = new AbortController();
  const onStop = () => controller.abort();
  options.signal?.addEventListener("abort", onStop);
  let timer: NodeJS.Timeout | undefined;
  const hardStop = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      // The check has a moment to answer with what it knows; then "timeout" is the answer.
      setTimeout(() => resolve(failed(`timeout after ${budgetMs / 1000} s`)), 250).unref();
    }, budgetMs);
  });
  try {
    const gatedCheck = async (): Promise<CheckOutcome> => {
      const gated = await gateCheck(spec, options);
      return "refused" in gated ? failed(gated.refused) : check(gated.spec, controller.signal, timeoutMs);
    };
    return await Promise.race([gatedCheck().catch((e: unknown) => failed(`check failed: ${String(e)}`)), hardStop]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onStop);
  }
}
