// A counting semaphore for open sockets (or child processes): a sweep of thousands of addresses and
// ports shares one budget, so the process never holds more than `max` descriptors for it at once.
// `peak` records the most ever held, which the benchmark reports.

export class SocketBudget {
  readonly max: number;
  #inUse = 0;
  #peak = 0;
  readonly #waiting: { grant: () => void; signal: AbortSignal | undefined; onAbort: () => void }[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a socket budget needs a positive integer, got ${max}`);
    this.max = max;
  }

  get inUse(): number {
    return this.#inUse;
  }

  get peak(): number {
    return this.#peak;
  }

  /**
   * Waits for a slot and returns its release function (idempotent). Rejects with the signal's reason
   * when the signal aborts first; a slot is never leaked by an aborted wait.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#inUse < this.max) return Promise.resolve(this.#take());
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener("abort", entry.onAbort);
          resolve(this.#take());
        },
        signal,
        onAbort: () => {
          const i = this.#waiting.indexOf(entry);
          if (i >= 0) this.#waiting.splice(i, 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener("abort", entry.onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  /** Runs `fn` holding one slot. */
  async with<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  #take(): () => void {
    this.#inUse++;
    if (this.#inUse > this.#peak) this.#peak = this.#inUse;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse--;
      const next = this.#waiting.shift();
      if (next) next.grant();
    };
  }
}
