// Idempotency keys of high-impact actions: the first successful outcome is stored with the action, in
// the action's transaction, and a repeat of the key replays it. A per-key advisory lock makes a second
// request with the same key wait for the first to commit, so an action never runs twice.
import { and, eq, lt, sql } from "drizzle-orm";
import { idempotencyKeys } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { VerbScope } from "../verb.ts";

// First half of the two-key advisory lock (the second is the key's hash); the two-key space never
// meets the single-key locks of the audit chain or the migrations.
const IDEMPOTENCY_LOCK = 7_246_020;
/** How long a key is remembered; after that the same key acts anew. */
export const KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface Outcome {
  status: number;
  body: unknown;
}

/**
 * Takes the key's lock and answers its stored outcome, or null when the key is fresh. A key used by
 * another actor or for another action is a 409: keys are per request, never shared.
 */
export async function claimKey(s: VerbScope, key: string, action: string): Promise<Outcome | null> {
  await s.tx.execute(sql`select pg_advisory_xact_lock(${IDEMPOTENCY_LOCK}, hashtext(${key}))`);
  await s.tx
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.key, key), lt(idempotencyKeys.created_at, new Date(s.now.getTime() - KEY_RETENTION_MS))));
  const rows = await s.tx.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
  if (rows.length === 0) return null;
  const mine = rows.find((r) => r.action === action && r.actor_id === (s.ctx.actor?.userId ?? null));
  if (!mine || rows.length > 1)
    throw ApiError.conflict("This idempotency key was already used for a different request; send a new key for a new request.");
  return { status: mine.status, body: mine.body };
}

export async function storeOutcome(s: VerbScope, key: string, action: string, outcome: Outcome): Promise<void> {
  await s.tx.insert(idempotencyKeys).values({
    key,
    action,
    actor_id: s.ctx.actor?.userId ?? null,
    status: outcome.status,
    body: outcome.body,
    created_at: s.now,
  });
}
