// Runs a high-impact action behind its confirmation: headers checked (428 otherwise), the idempotency
// key claimed, the action run, its outcome stored and `confirmation.accepted` audited, all in one
// transaction. The action's verb gets a context whose database is that transaction, so its own
// transaction nests (a savepoint) and everything commits or vanishes together.
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { auditOnly, runInTransaction } from "../verb.ts";
import { type ConfirmationSpec, type HeaderReader, requireConfirmation } from "./confirm.ts";
import { claimKey, type Outcome, storeOutcome } from "./idempotency.ts";

export interface ConfirmedResult {
  outcome: Outcome;
  /** True when the outcome is the stored one of an earlier request with the same key. */
  replayed: boolean;
}

export async function runConfirmed(
  ctx: VerbContext,
  spec: ConfirmationSpec,
  header: HeaderReader,
  act: (ctx: VerbContext) => Promise<Outcome>,
): Promise<ConfirmedResult> {
  const key = await requireConfirmation(ctx, spec, header);
  const entity = { category: "security", entity_type: "confirmation", entity_id: spec.action } as const;
  try {
    return await runInTransaction(ctx, {}, async (s) => {
      const stored = await claimKey(s, key, spec.action);
      if (stored) {
        s.audit({ ...entity, action: "confirmation.replayed", diff: { action: spec.action, status: stored.status } });
        return { outcome: stored, replayed: true };
      }
      const result = await act({ ...ctx, db: s.tx });
      // Stored as JSON so a replay answers exactly what the first response said.
      const outcome: Outcome = { status: result.status, body: JSON.parse(JSON.stringify(result.body ?? null)) };
      await storeOutcome(s, key, spec.action, outcome);
      // Recorded after the action's own entries: an action that starts a new chain keeps its entry first.
      s.audit({ ...entity, action: "confirmation.accepted", diff: { action: spec.action, status: outcome.status } });
      return { outcome, replayed: false };
    });
  } catch (err) {
    // The transaction rolled back, so nothing acted and the key stays free; the attempt is still recorded.
    const status = err instanceof ApiError ? err.status : 500;
    const error_code = err instanceof ApiError ? err.code : "INTERNAL_SERVER_ERROR";
    const entry = { ...entity, action: "confirmation.failed", level: "warning", diff: { action: spec.action, status, error_code } } as const;
    // When even this write fails (database gone), the original error is the one worth answering.
    await auditOnly(ctx, [entry]).catch(() => {});
    throw err;
  }
}
