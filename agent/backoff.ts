// Reconnect delays: exponential from `minMs` to `maxMs` with full jitter (a uniform draw in [0, cap]),
// so a fleet that lost its sidecar at the same instant does not come back at the same instant.
export interface BackoffOptions {
  minMs?: number;
  maxMs?: number;
  /** A number in [0, 1); injectable so tests can pin the draw. */
  random?: () => number;
}

export class Backoff {
  readonly #min: number;
  readonly #max: number;
  readonly #random: () => number;
  #attempt = 0;

  constructor({ minMs = 1000, maxMs = 60_000, random = Math.random }: BackoffOptions = {}) {
    this.#min = minMs;
    this.#max = maxMs;
    this.#random = random;
  }

  /** The ceiling of the next draw: min * 2^attempt, at most max. */
  get cap(): number {
    return Math.min(this.#max, this.#min * 2 ** Math.min(this.#attempt, 30));
  }

  /** The delay before the next attempt; each call doubles the ceiling until it reaches max. */
  next(): number {
    const delay = Math.floor(this.#random() * (this.cap + 1));
    this.#attempt++;
    return Math.min(delay, this.#max);
  }

  /** After a link that held: start again from min. */
  reset(): void {
    this.#attempt = 0;
  }
}
