// DELETE /auth/api-tokens/{token_id}: the token stops working on the very next request (resolve.ts checks
// revoked_at on every use). Revoking twice is harmless and recorded once.
import { eq } from "drizzle-orm";
import { apiTokens } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { requireCredential } from "./grant.ts";
import { lockManagedToken } from "./managed-token.ts";

export const revokeApiToken = defineVerb({ scope: requireCredential }, async (s, input: { tokenId: number }) => {
  const row = await lockManagedToken(s, input.tokenId);
  if (row.revoked_at) return { detail: `API token ${row.id} was already revoked.` };
  await s.tx.update(apiTokens).set({ revoked_at: s.now }).where(eq(apiTokens.id, row.id));
  s.audit({
    action: "token.revoked",
    category: "security",
    entity_type: "api_token",
    entity_id: row.id,
    diff: { before: { revoked_at: null }, after: { revoked_at: s.now.toISOString() }, user_id: row.user_id, prefix: row.prefix },
  });
  return { detail: `API token ${row.id} revoked.` };
});
