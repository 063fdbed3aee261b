// A push monitor's token: issued when it is created and by POST /monitors/{id}/push-token (rotate), each
// time a new one whose hash replaces the stored one, so the old token stops in the same commit. The
// token is answered once and never audited (docs/adr/0439).
import { eq } from "drizzle-orm";
import { monitors } from "../../../db/schema/index.ts";
import { sourceOf } from "../../../domain/monitors/check-types.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { requireMonitor } from "../monitor-row.ts";
import { announceMonitor, auditMonitor } from "../notify.ts";
import { WRITE_MONITORS } from "../scopes.ts";
import { newPushToken, pushTokenHash } from "./token.ts";

/** Stores a new token's hash on monitor `id` and answers the token. */
export async function issuePushToken(s: VerbScope, id: number): Promise<string> {
  const token = newPushToken(s.ctx.random);
  await s.tx
    .update(monitors)
    .set({ push_token_hash: pushTokenHash(token) })
    .where(eq(monitors.id, id));
  return token;
}

export const rotatePushToken = defineVerb<{ id: number }, { monitor_id: number; push_token: string }>(
  { scope: WRITE_MONITORS },
  async (s, { id }) => {
    const before = await requireMonitor(s.tx, id, { forUpdate: true });
    if (sourceOf(before.check_type) !== "push")
      throw ApiError.conflict(`Monitor ${id} is a ${before.check_type} monitor; only push monitors have a push URL.`, {
        reason: "not_push_monitor",
      });
    const token = await issuePushToken(s, id);
    await s.tx.update(monitors).set({ updated_at: s.now }).where(eq(monitors.id, id));
    auditMonitor(s, "push_token_rotate", id, { push_token: { replaced: before.push_token_hash != null } });
    announceMonitor(s, id, "updated", { fields: ["push_token"] });
    return { monitor_id: id, push_token: token };
  },
);
