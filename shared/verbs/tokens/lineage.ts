// Tokens made by tokens (docs/adr/0320): a token created or rotated through an API token never outlives
// it, records it as its parent, and is revoked with it. The parent row is locked (FOR SHARE) while the
// child is written, so a concurrent revocation either sees the child or makes the creation fail.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { apiTokens } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { VerbScope } from "../verb.ts";
import type { ExpiryInput } from "./expiry.ts";

type TokenRow = typeof apiTokens.$inferSelect;

/** The API token the caller is using, locked against revocation until commit; null for a session. */
export async function lockCallerToken(s: VerbScope): Promise<TokenRow | null> {
  const id = s.ctx.actor?.tokenId;
  if (id == null) return null;
  const [row] = await s.tx.select().from(apiTokens).where(eq(apiTokens.id, id)).for("share");
  if (!row || row.revoked_at) throw ApiError.unauthorized("The API token was revoked.");
  if (row.expires_at && row.expires_at <= s.now) throw ApiError.unauthorized("The API token has expired.");
  return row;
}

/**
 * The expiry of a token made through `parent`: the one asked for, or the parent's when none was asked.
 * Asking for a later one than the parent's is a 422, not a silent clamp, so the caller learns why.
 */
export function childExpiry(parent: TokenRow | null, asked: Date | null, input: ExpiryInput): Date | null {
  const limit = parent?.expires_at ?? null;
  if (!limit) return asked;
  if (!asked) return limit;
  if (asked <= limit) return asked;
  const field = input.expires_at !== undefined ? "expires_at" : "expires_in_days";
  throw ApiError.validation([
    {
      loc: ["body", field],
      msg: `The new token must expire no later than the API token you are using (${limit.toISOString()}).`,
      type: "expiry",
    },
  ]);
}

/** 403 when a token rotated through `caller` would outlive it (the new secret would be a longer-lived copy). */
export function requireNotOutliving(caller: TokenRow | null, target: TokenRow): void {
  const limit = caller?.expires_at ?? null;
  if (limit && (!target.expires_at || target.expires_at > limit))
    throw ApiError.forbidden(`API token ${target.id} expires later than the API token you are using, so that token cannot rotate it.`);
}

/** Upper bound on the passes of `revokeDescendants`; each pass goes one creation race deeper. */
const MAX_PASSES = 100;

/**
 * Revokes every live token created, directly or not, through token `rootId`, auditing each. A pass
 * walks the whole tree from one snapshot; a child committed during that pass (its parent was locked
 * before ours) is caught by the next, and passes stop when one revokes nothing.
 */
export async function revokeDescendants(s: VerbScope, rootId: number): Promise<number> {
  let total = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const tree = sql`(with recursive tree(id) as (
      select id from api_tokens where parent_token_id = ${rootId}
      union select t.id from api_tokens t join tree on t.parent_token_id = tree.id
    ) select id from tree)`;
    const revoked = await s.tx
      .update(apiTokens)
      .set({ revoked_at: s.now })
      .where(and(inArray(apiTokens.id, tree), isNull(apiTokens.revoked_at)))
      .returning({ id: apiTokens.id, user_id: apiTokens.user_id, prefix: apiTokens.prefix, parent: apiTokens.parent_token_id });
    for (const row of revoked)
      s.audit({
        action: "token.revoked",
        category: "security",
        entity_type: "api_token",
        entity_id: row.id,
        diff: {
          before: { revoked_at: null },
          after: { revoked_at: s.now.toISOString() },
          user_id: row.user_id,
          prefix: row.prefix,
          revoked_with: rootId,
          parent_token_id: row.parent,
        },
      });
    total += revoked.length;
    if (revoked.length === 0) break;
  }
  return total;
}
