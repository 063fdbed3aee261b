// POST /agents/rollouts/{id}/cancel: a running or stopped rollout ends `cancelled`; its pending targets are
// skipped and never sent. Targets already queued or started keep following their agents' reports (an
// `update` frame that went out cannot be taken back). 409 for a rollout already finished; with If-Match
// (the ETag of GET) a rollout changed since is a 412.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb } from "../../verb.ts";
import { ADMIN_AGENTS } from "../scopes.ts";
import { auditRollout, type RolloutRow, touchRollout } from "./advance.ts";
import { presentRollout, type RolloutReadShape } from "./present.ts";
import { requireRollout } from "./read-rollouts.ts";

export interface RolloutActionInput {
  id: number;
  /** The ETag's number (updated_at in epoch ms) the client last read. */
  ifMatch?: number | undefined;
}

/** The rollout, locked; 412 when If-Match names another version, 409 unless it is in one of `allowed`. */
export async function lockForAction(
  tx: Parameters<typeof requireRollout>[0],
  { id, ifMatch }: RolloutActionInput,
  allowed: readonly string[],
  doing: string,
): Promise<RolloutRow> {
  const row = await requireRollout(tx, id, { forUpdate: true });
  if (ifMatch !== undefined && row.updated_at.getTime() !== ifMatch)
    throw new ApiError("PRECONDITION_FAILED", `Rollout ${id} changed since it was read: read it again.`);
  if (!allowed.includes(row.state))
    throw ApiError.conflict(`Rollout ${id} is ${row.state}: only a ${allowed.join(" or ")} rollout can ${doing}.`, { state: row.state });
  return row;
}

export const cancelRollout = defineVerb<RolloutActionInput, RolloutReadShape>({ scope: ADMIN_AGENTS }, async (s, input) => {
  const row = await lockForAction(s.tx, input, ["running", "stopped"], "be cancelled");
  const skipped = await queryRows<{ agent_id: number }>(
    s.tx,
    sql`update agent_rollout_targets set state = 'skipped', error = 'rollout cancelled before its wave', updated_at = ${s.now.toISOString()}::timestamptz
        where rollout_id = ${row.id} and state = 'pending' returning agent_id`,
  );
  await touchRollout(s, row.id, { state: "cancelled", finished_at: s.now });
  auditRollout(s, "cancelled", row, { from_state: row.state, skipped: skipped.map((r) => r.agent_id) });
  return presentRollout(s.tx, await requireRollout(s.tx, row.id));
});
