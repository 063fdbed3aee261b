// Group commit for pushes (docs/adr/0439, shared/group-commit.ts): pushes arriving while a commit is in
// flight share the next transaction, each answered only once it committed. One committer per database handle: on
// Node the pool's one handle (every request shares it); on workerd a handle per request, so a batch
// of one.
import type { Db } from "../../../db/database.ts";
import { GroupCommitter } from "../../../group-commit.ts";
import type { VerbContext } from "../../verb-context.ts";
import { type Push, type PushOutcome, recordPushes } from "./record-pushes.ts";

const MAX_BATCH = 500;

const committers = new WeakMap<Db, GroupCommitter<Push, PushOutcome>>();

/** Records `push` in the next shared transaction of `ctx.db`; resolves after it committed. */
export function commitPush(ctx: VerbContext, push: Push): Promise<PushOutcome> {
  let committer = committers.get(ctx.db);
  if (!committer) {
    // The database and the process's clock and randomness, nobody acting (the verb is public).
    const vctx: VerbContext = { db: ctx.db, clock: ctx.clock, random: ctx.random };
    committer = new GroupCommitter((pushes) => recordPushes({ ctx: vctx, input: { pushes } }), MAX_BATCH);
    committers.set(ctx.db, committer);
  }
  return committer.submit(push);
}
