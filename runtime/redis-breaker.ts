// A circuit breaker in front of Redis (docs/adr/0345). Each call is already bounded (runtime/redis.ts);
// the breaker keeps a partitioned Redis from costing every request that bound: after `failures` calls in
// a row have failed it opens, and for `openMs` every call fails at once without touching Redis. Then one
// call goes through as a trial (half open): its success closes the breaker, its failure opens it again.
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";

export const BREAKER_FAILURES = 3;
export const BREAKER_OPEN_MS = 5000;

export type BreakerState = "closed" | "open" | "half_open";

/** The refusal of an open breaker: the call was not made. */
export class CircuitOpenError extends Error {
  constructor(name: string) {
    super(`${name} circuit open: not called after repeated failures`);
    this.name = "CircuitOpenError";
  }
}

export interface BreakerOptions {
  /** Named in the error and the log lines. */
  name: string;
  clock: Clock;
  logger: Logger;
  failures?: number;
  openMs?: number;
}

export class CircuitBreaker {
  readonly #name: string;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #threshold: number;
  readonly #openMs: number;
  /** Consecutive failures; at the threshold or over, the breaker is open (or half open). */
  #failures = 0;
  #openUntil = 0;
  /** The half-open trial call is out: the others still fail fast. */
  #trial = false;

  constructor(opts: BreakerOptions) {
    this.#name = opts.name;
    this.#clock = opts.clock;
    this.#logger = opts.logger;
    this.#threshold = opts.failures ?? BREAKER_FAILURES;
    this.#openMs = opts.openMs ?? BREAKER_OPEN_MS;
  }

  get state(): BreakerState {
    if (this.#failures < this.#threshold) return "closed";
    return this.#trial || this.#now() < this.#openUntil ? "open" : "half_open";
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === "open") throw new CircuitOpenError(this.#name);
    const trial = state === "half_open";
    if (trial) this.#trial = true;
    try {
      const result = await call();
      this.#succeeded();
      return result;
    } catch (e) {
      this.#failed(e);
      throw e;
    } finally {
      if (trial) this.#trial = false;
    }
  }

  #succeeded(): void {
    if (this.#failures >= this.#threshold) this.#logger.info(`${this.#name} circuit closed: answering again`);
    this.#failures = 0;
  }

  #failed(e: unknown): void {
    this.#failures++;
    if (this.#failures < this.#threshold) return;
    // Opens on reaching the threshold and again after each failed trial; failures of calls that were
    // already out when it opened do not extend it.
    if (this.#failures === this.#threshold || this.#trial) {
      this.#openUntil = this.#now() + this.#openMs;
      this.#logger.warn(`${this.#name} circuit open: not called for ${this.#openMs} ms`, {
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }

  #now(): number {
    return this.#clock.now().getTime();
  }
}
