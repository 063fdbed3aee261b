// POST /auth/api-tokens/{token_id}/rotate: a new secret and prefix on the same row (label, scopes and expiry
// kept). The old hash is overwritten in the same statement, so the old secret fails on the very next request.
import { eq } from "drizzle-orm";
import { apiTokens } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { defineVerb } from "../verb.ts";
import { withFreshToken } from "./fresh-token.ts";
import { requireGrantor } from "./grant.ts";
import { lockCallerToken, requireNotOutliving } from "./lineage.ts";
import { lockManagedToken } from "./managed-token.ts";
import { type IssuedToken, issuedToken } from "./token-view.ts";

export const rotateApiToken = defineVerb<{ tokenId: number }, IssuedToken>({ scope: requireGrantor }, async (s, input) => {
  const row = await lockManagedToken(s, input.tokenId);
  if (row.revoked_at) throw ApiError.conflict(`API token ${row.id} is revoked; create a new one instead.`);
  if (row.expires_at && row.expires_at <= s.now) throw ApiError.conflict(`API token ${row.id} has expired; create a new one instead.`);
  requireNotOutliving(await lockCallerToken(s), row);
  const { result: rotated, token } = await withFreshToken(s, async (tx, fresh) => {
    const [updated] = await tx
      .update(apiTokens)
      .set({ prefix: fresh.prefix, token_hash: fresh.token_hash })
      .where(eq(apiTokens.id, row.id))
      .returning();
    return updated!;
  });
  s.audit({
    action: "token.rotated",
    category: "security",
    entity_type: "api_token",
    entity_id: row.id,
    diff: { before: { prefix: row.prefix }, after: { prefix: rotated.prefix }, user_id: row.user_id },
  });
  return issuedToken(rotated, token);
});
