// Group commit for pushes (docs/adr/0439, shared/group-commit.ts): pushes arriving while a commit is in
// flight share the next transaction, each answered only once it committed. One committer per database handle: on
// Node the pool's one handle (every request shares it); on workerd a handle per request, so a batch
// of one. Several batches are in flight at once (docs/adr/0453), never two with a push to the same token:
// such a push waits for a later batch, so concurrent batches lock disjoint push monitors.
import type { Db } from "../../../db/database.ts";
import { GroupCommitter } from "../../../group-commit.ts";
import type { VerbContext } from "../../verb-context.ts";
import { type Push, type PushOutcome, recordPushes } from "./record-pushes.ts";

const MAX_BATCH = 500;
/**
 * Batches in flight at once, each holding one pooled connection while it commits. Two overlap one batch's
 * round trips with the next one's; more made batches smaller and cost more CPU per push (docs/adr/0453).
 */
export const PUSH_BATCHES_IN_FLIGHT = 2;

const committers = new WeakMap<Db, GroupCommitter<Push, PushOutcome>>();

/** Records `push` in the next shared transaction of `ctx.db`; resolves after it committed. */
export function commitPush(ctx: VerbContext, push: Push): Promise<PushOutcome> {
  let committer = committers.get(ctx.db);
  if (!committer) {
    // The database and the process's clock and randomness, nobody acting (the verb is public).
    const vctx: VerbContext = { db: ctx.db, clock: ctx.clock, random: ctx.random };
    committer = new GroupCommitter((pushes) => recordPushes({ ctx: vctx, input: { pushes } }), {
      maxBatch: MAX_BATCH,
      parallel: PUSH_BATCHES_IN_FLIGHT,
      keyOf: (p) => p.token_hash,
    });
    committers.set(ctx.db, committer);
  }
  return committer.submit(push);
}
