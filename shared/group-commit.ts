// Group commit: items submitted while a commit is in flight wait together and share the next one, each
// settled only once that commit finished. With nothing in flight an item starts its commit at once (after
// the current turn of the event loop, so items submitted in the same turn join it): a lone item waits for
// no timer, and under load a commit carries as many items as arrived during the previous one, up to
// `maxBatch`. Used where many small writes would each pay a transaction: pushes (docs/adr/0439) and
// notification attempts (docs/adr/0452).

interface Waiting<I, O> {
  item: I;
  resolve(outcome: O): void;
  reject(error: unknown): void;
}

export class GroupCommitter<I, O> {
  private queue: Waiting<I, O>[] = [];
  private committing = false;
  private readonly commit: (items: I[]) => Promise<O[]>;
  private readonly maxBatch: number;

  /** `commit` answers one outcome per item, in order; if it throws, every item of its batch rejects. */
  constructor(commit: (items: I[]) => Promise<O[]>, maxBatch = 500) {
    this.commit = commit;
    this.maxBatch = maxBatch;
  }

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.committing) {
        this.committing = true;
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    // Bounded by the queue: each round takes up to maxBatch of what is waiting, and stops when none is.
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const outcomes = await this.commit(batch.map((w) => w.item));
        for (const [i, w] of batch.entries()) w.resolve(outcomes[i]!);
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    this.committing = false;
  }
}
