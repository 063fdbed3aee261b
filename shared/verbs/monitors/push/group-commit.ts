// Group commit for pushes (docs/adr/0439): pushes arriving while a commit is in flight wait together and
// share the next transaction, each answered only once that transaction committed. With nothing in
// flight a push starts its commit at once (after the current turn of the event loop, so pushes parsed
// in the same turn join it), so a lone push waits for no timer; under load a transaction carries as many
// pushes as arrived during the previous one, up to MAX_BATCH. One committer per database handle: on
// Node the pool's one handle (every request shares it); on workerd a handle per request, so a batch
// of one.
import type { Db } from "../../../db/database.ts";
import type { VerbContext } from "../../verb-context.ts";
import { type Push, type PushOutcome, recordPushes } from "./record-pushes.ts";

const MAX_BATCH = 500;

interface Waiting {
  push: Push;
  resolve(outcome: PushOutcome): void;
  reject(error: unknown): void;
}

class PushCommitter {
  private queue: Waiting[] = [];
  private committing = false;

  /** The database and the process's clock and randomness, nobody acting (the verb is public). */
  private ctx: VerbContext | undefined;

  submit(ctx: VerbContext, push: Push): Promise<PushOutcome> {
    this.ctx = { db: ctx.db, clock: ctx.clock, random: ctx.random };
    return new Promise((resolve, reject) => {
      this.queue.push({ push, resolve, reject });
      if (!this.committing) {
        this.committing = true;
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    // Bounded by the queue: each round takes up to MAX_BATCH of what is waiting, and stops when none is.
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const outcomes = await recordPushes({ ctx: this.ctx!, input: { pushes: batch.map((w) => w.push) } });
        for (const [i, w] of batch.entries()) w.resolve(outcomes[i]!);
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    this.committing = false;
  }
}

const committers = new WeakMap<Db, PushCommitter>();

/** Records `push` in the next shared transaction of `ctx.db`; resolves after it committed. */
export function commitPush(ctx: VerbContext, push: Push): Promise<PushOutcome> {
  let committer = committers.get(ctx.db);
  if (!committer) {
    committer = new PushCommitter();
    committers.set(ctx.db, committer);
  }
  return committer.submit(ctx, push);
}
