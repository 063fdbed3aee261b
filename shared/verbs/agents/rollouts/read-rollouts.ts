// GET /agents/rollouts (the list envelope, newest first by default, filter `state`) and
// GET /agents/rollouts/{rollout_id} (with its targets); 404 naming the rollout when there is none.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { agentRollouts } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import { type ListPage, type ListSpec, listPage } from "../../resources/list.ts";
import { defineRead } from "../../verb.ts";
import { READ_AGENTS } from "../scopes.ts";
import type { RolloutRow } from "./advance.ts";
import { presentRollout, presentRolloutSummaries, type RolloutReadShape, type RolloutSummaryShape } from "./present.ts";

const SPEC: ListSpec = {
  table: agentRollouts,
  id: agentRollouts.id,
  sortable: { id: agentRollouts.id, created_at: agentRollouts.created_at, state: agentRollouts.state, version: agentRollouts.version },
  search: [agentRollouts.version],
};

export async function requireRollout(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<RolloutRow> {
  const query = db.select().from(agentRollouts).where(eq(agentRollouts.id, id));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw ApiError.notFound("Rollout", id);
  return row;
}

export const listRollouts = defineRead<ListParams & { state?: string | undefined }, ListPage<RolloutSummaryShape>>(
  { scope: READ_AGENTS },
  (ctx, input) =>
    listPage<RolloutRow, RolloutSummaryShape>(
      ctx.db,
      SPEC,
      input,
      [input.state !== undefined ? eq(agentRollouts.state, input.state) : undefined],
      (rows) => presentRolloutSummaries(ctx.db, rows),
    ),
);

export const getRollout = defineRead<{ id: number }, RolloutReadShape>({ scope: READ_AGENTS }, async (ctx, { id }) =>
  presentRollout(ctx.db, await requireRollout(ctx.db, id)),
);
