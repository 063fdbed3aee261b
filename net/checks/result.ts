// What every check answers: up or down, the latency it measured, the samples to store (metric rows:
// avail, latency_ms, http_status, cert_days_remaining, packet_loss_pct, ...) and a message for a human.
// A check never throws: a target that refuses, hangs or answers nonsense is a result like any other.
import type { CheckType } from "../../shared/domain/monitors/check-types.ts";
import type { CheckSample } from "../../shared/domain/monitors/state.ts";
import type { LookupFunction } from "node:net";
import type { OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";

export type { CheckSample };

/** How a connection of the check must look names up, and the policy its redirects are judged by (reach.ts). */
export interface Reach {
  policy: OutboundPolicy;
  lookup: LookupFunction;
}

export interface CheckOutcome {
  up: boolean;
  latency_ms: number | null;
  samples: CheckSample[];
  msg: string;
  /** The check could not run as configured (the agent answers it as an execution_error). */
  invalid_config?: true;
}

/** What a check is asked to do: the monitor's host and (already validated) per-type config. */
export interface CheckSpec {
  check_type: CheckType;
  host: string;
  config: Record<string, unknown>;
  /** Set by runCheck (reach.ts): the lookup connections use and the policy redirects are judged by. */
  reach?: Reach;
  /**
   * Only `host` may be reached (the reference agent: the server checked that host against the agent's
   * scope, not whatever a URL names): an http URL naming another host is a config error, a redirect to
   * one is not followed.
   */
  hostOnly?: boolean;
}

/** A check of one target. `signal` aborts it when its time is up or the worker stops; it must never throw. */
export type Check = (spec: CheckSpec, signal: AbortSignal, timeoutMs: number) => Promise<CheckOutcome>;

/** Milliseconds since `start` (performance.now()), two decimals. */
export const elapsed = (start: number): number => Math.round((performance.now() - start) * 100) / 100;

export function failed(msg: string, latency_ms: number | null = null, extra: CheckSample[] = []): CheckOutcome {
  const samples: CheckSample[] = [{ metric: "avail", value: 0 }];
  if (latency_ms !== null) samples.push({ metric: "latency_ms", value: latency_ms });
  return { up: false, latency_ms, samples: [...samples, ...extra], msg: msg.slice(0, 2000) };
}

export function succeeded(msg: string, latency_ms: number | null, extra: CheckSample[] = []): CheckOutcome {
  const samples: CheckSample[] = [{ metric: "avail", value: 1 }];
  if (latency_ms !== null) samples.push({ metric: "latency_ms", value: latency_ms });
  return { up: true, latency_ms, samples: [...samples, ...extra], msg: msg.slice(0, 2000) };
}

/** The check cannot run as configured: down, with the reason. */
export const invalidConfig = (e: unknown): CheckOutcome => ({ ...failed(`invalid config: ${(e as Error).message}`), invalid_config: true });

/** The same host, whatever the brackets and case of either spelling. */
export const sameHost = (a: string, b: string) => a.replace(/^\[|\]$/g, "").toLowerCase() === b.replace(/^\[|\]$/g, "").toLowerCase();

/** The error's short code (ECONNREFUSED, ENOTFOUND...) or its message: what a user can act on. */
export function reasonOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.name === "AbortError") return "timeout";
  // The monitor policy's lookup refused every address the name resolves to (reach.ts).
  if (err?.code === "EOUTBOUNDPOLICY") return `refused by the monitor policy: ${err.message}`;
  return err?.code ?? err?.message ?? String(e);
}

/** Reads config values with their defaults; a value of the wrong type is a config error (the check fails). */
export class ConfigReader {
  readonly #config: Record<string, unknown>;
  constructor(config: Record<string, unknown>) {
    this.#config = config;
  }
  #get<T>(key: string, ok: (v: unknown) => boolean, what: string, fallback: T): T {
    const value = this.#config[key];
    if (value === undefined || value === null) return fallback;
    if (!ok(value)) throw new CheckConfigError(`config.${key} must be ${what}`);
    return value as T;
  }
  string<T extends string | null>(key: string, fallback: T): string | T {
    return this.#get(key, (v) => typeof v === "string", "a string", fallback);
  }
  number<T extends number | null>(key: string, fallback: T): number | T {
    return this.#get(key, (v) => typeof v === "number" && Number.isFinite(v), "a number", fallback);
  }
  boolean(key: string, fallback: boolean): boolean {
    return this.#get(key, (v) => typeof v === "boolean", "a boolean", fallback);
  }
  strings(key: string, fallback: string[]): string[] {
    return this.#get(key, (v) => Array.isArray(v) && v.every((x) => typeof x === "string"), "a list of strings", fallback);
  }
  numbers(key: string, fallback: number[] | null): number[] | null {
    return this.#get(key, (v) => Array.isArray(v) && v.every((x) => typeof x === "number"), "a list of numbers", fallback);
  }
  record(key: string): Record<string, string> {
    return this.#get(
      key,
      (v) => typeof v === "object" && !Array.isArray(v) && Object.values(v as object).every((x) => typeof x === "string"),
      "an object of strings",
      {},
    );
  }
}

/** The check cannot run as configured (a config stored before a rule existed, say). */
export class CheckConfigError extends Error {
  override name = "CheckConfigError";
}
