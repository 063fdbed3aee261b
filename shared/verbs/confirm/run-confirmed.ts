// Runs a high-impact action behind its confirmation: headers checked (428 otherwise, before anything
// else), then in one transaction the idempotency key claimed, the action run, its outcome stored and
// `confirmation.accepted` audited. The action's verb gets a context whose database is a savepoint of
// that transaction, so its own transaction nests, and a failing action vanishes while its
// `confirmation.failed` entry commits.
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineVerb } from "../verb.ts";
import { type ConfirmationSpec, type HeaderReader, requireConfirmation } from "./confirm.ts";
import { claimKey, type Outcome, storeOutcome } from "./idempotency.ts";

export interface ConfirmedResult {
  outcome: Outcome;
  /** True when the outcome is the stored one of an earlier request with the same key. */
  replayed: boolean;
}

export interface ConfirmedAction {
  spec: ConfirmationSpec;
  header: HeaderReader;
  act: (ctx: VerbContext) => Promise<Outcome>;
}

/** Open to any caller: the action's own verb checks its scope. */
export const runConfirmed = defineVerb<ConfirmedAction, ConfirmedResult, string>(
  { scope: "public", prepare: (ctx, input) => requireConfirmation(ctx, input.spec, input.header) },
  async (s, { spec, act }, key) => {
    const entity = { category: "security", entity_type: "confirmation", entity_id: spec.action } as const;
    try {
      const stored = await claimKey(s, key, spec.action);
      if (stored) {
        s.audit({ ...entity, action: "confirmation.replayed", diff: { action: spec.action, status: stored.status } });
        return { outcome: stored, replayed: true };
      }
      const result = await s.savepoint((tx) => act({ ...s.ctx, db: tx }));
      // Stored as JSON so a replay answers exactly what the first response said.
      const outcome: Outcome = { status: result.status, body: JSON.parse(JSON.stringify(result.body ?? null)) };
      await storeOutcome(s, key, spec.action, outcome);
      // Recorded after the action's own entries: an action that starts a new chain keeps its entry first.
      s.audit({ ...entity, action: "confirmation.accepted", diff: { action: spec.action, status: outcome.status } });
      return { outcome, replayed: false };
    } catch (err) {
      // Nothing acted and the key stays unstored; the attempt is recorded.
      const status = err instanceof ApiError ? err.status : 500;
      const error_code = err instanceof ApiError ? err.code : "INTERNAL_SERVER_ERROR";
      s.audit({ ...entity, action: "confirmation.failed", level: "warning", diff: { action: spec.action, status, error_code } });
      return s.refuse(err as Error);
    }
  },
);
