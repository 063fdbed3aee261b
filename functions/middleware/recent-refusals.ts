// Which clients the rate limiter refused lately, per process: only a hint for scheduling (whether a
// read waits for the verdict), never the count itself, which lives in the shared store (spec 8.1.1).
const MAX_ENTRIES = 10_000;

export class RecentRefusals {
  readonly #until = new Map<string, number>();

  has(key: string, now: number): boolean {
    const until = this.#until.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.#until.delete(key);
    return false;
  }

  add(key: string, until: number): void {
    // A bound, not an LRU: forgetting a refusal only means one more read runs beside its verdict.
    if (this.#until.size >= MAX_ENTRIES) this.#until.clear();
    this.#until.set(key, until);
  }
}
