// Group commit: items submitted while a commit is in flight wait together and share the next one, each
// settled only once that commit finished. With a commit slot free an item starts its commit at once (after
// the current turn of the event loop, so items submitted in the same turn join it): a lone item waits for
// no timer, and under load a commit carries as many items as arrived during the previous one, up to
// `maxBatch`. Used where many small writes would each pay a transaction: pushes (docs/adr/0439, 0453) and
// notification attempts (docs/adr/0452).
// `parallel` commits may be in flight at once (docs/adr/0453): a commit's round trips then overlap with
// the next one's. With `keyOf`, two commits in flight never hold items of the same key: an item whose
// key is in flight waits for a later batch (items of one key keep their order), so concurrent
// transactions never wait on each other's rows of that key.

interface Waiting<I, O> {
  item: I;
  key: unknown;
  resolve(outcome: O): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions<I> {
  /** Items in one commit at most (500). */
  maxBatch?: number;
  /** Commits in flight at once (1). */
  parallel?: number;
  /** Items of one key are never in two commits in flight at once. */
  keyOf?: (item: I) => unknown;
}

export class GroupCommitter<I, O> {
  private queue: Waiting<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Keys of the items in commits in flight (with `keyOf`). */
  private readonly busy = new Set<unknown>();
  private readonly commit: (items: I[]) => Promise<O[]>;
  private readonly maxBatch: number;
  private readonly parallel: number;
  private readonly keyOf: ((item: I) => unknown) | undefined;

  /** `commit` answers one outcome per item, in order; if it throws, every item of its batch rejects. */
  constructor(commit: (items: I[]) => Promise<O[]>, options: GroupCommitOptions<I> = {}) {
    this.commit = commit;
    this.maxBatch = Math.max(1, options.maxBatch ?? 500);
    this.parallel = Math.max(1, options.parallel ?? 1);
    this.keyOf = options.keyOf;
  }

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, key: this.keyOf?.(item), resolve, reject });
      if (this.inFlight < this.parallel && !this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => {
          this.scheduled = false;
          this.fill();
        });
      }
    });
  }

  /** Starts commits while a slot is free and some waiting item may go (bounded by `parallel`). */
  private fill(): void {
    while (this.inFlight < this.parallel && this.queue.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return; // every waiting item's key is in flight: its commit's end calls fill
      this.inFlight++;
      void this.run(batch);
    }
  }

  /** The next batch: the first `maxBatch` waiting items whose key no commit in flight holds. */
  private take(): Waiting<I, O>[] {
    if (!this.keyOf) return this.queue.splice(0, this.maxBatch);
    const batch: Waiting<I, O>[] = [];
    const rest: Waiting<I, O>[] = [];
    const held = new Set<unknown>();
    for (const w of this.queue) {
      // An item waits when its key is in flight, or when its batch is full (then so do the later items of its key).
      if (batch.length < this.maxBatch && (held.has(w.key) || !this.busy.has(w.key))) {
        batch.push(w);
        held.add(w.key);
      } else rest.push(w);
    }
    this.queue = rest;
    for (const k of held) this.busy.add(k);
    return batch;
  }

  private async run(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const outcomes = await this.commit(batch.map((w) => w.item));
      for (const [i, w] of batch.entries()) w.resolve(outcomes[i]!);
    } catch (e) {
      for (const w of batch) w.reject(e);
    } finally {
      this.inFlight--;
      if (this.keyOf) for (const w of batch) this.busy.delete(w.key);
      this.fill();
    }
  }
}
