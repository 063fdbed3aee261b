// What one probe check answers, before the runner wraps it into a probe.result: up or down, the samples
// (avail, latency_ms, http_status...), a message for a human, details.
export type Sample = {
  metric: string;
  value: number | null;
  error_reason: string | null;
};

export interface CheckResult {
  up: boolean;
  samples: Sample[];
  msg: string | null;
  details?: Record<string, unknown>;
}

/** A check of one host; aborted when cancelled or its deadline comes. Throws only for invalid config. */
export type Check = (host: string, config: Record<string, unknown>, signal: AbortSignal, timeoutMs: number) => Promise<CheckResult>;

/** A config value that must have a type, or its default. */
export function option<T>(config: Record<string, unknown>, key: string, type: "string" | "number" | "boolean" | "object", fallback: T): T {
  const value = config[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== type) throw new ProbeConfigError(`config.${key} must be a ${type}`);
  return value as T;
}

/** The check cannot run as configured: answered as execution_error. */
export class ProbeConfigError extends Error {
  override name = "ProbeConfigError";
}

export const down = (reason: string, latencyMs: number | null = null): CheckResult => ({
  up: false,
  samples: [
    { metric: "avail", value: 0, error_reason: reason },
    { metric: "latency_ms", value: latencyMs, error_reason: reason },
  ],
  msg: reason,
});

export const elapsed = (start: number) => Math.round((performance.now() - start) * 100) / 100;
