// DELETE /auth/api-tokens/{token_id}: the token stops working on the very next request (resolve.ts checks
// revoked_at on every use), and so does every token created through it, in the same transaction
// (lineage.ts). Revoking twice is harmless and recorded once.
import { eq } from "drizzle-orm";
import { apiTokens } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { requireCredential } from "./grant.ts";
import { revokeDescendants } from "./lineage.ts";
import { lockManagedToken } from "./managed-token.ts";

const andDescendants = (n: number) => (n === 0 ? "" : `, with ${n} token${n === 1 ? "" : "s"} created through it`);

export const revokeApiToken = defineVerb({ scope: requireCredential }, async (s, input: { tokenId: number }) => {
  const row = await lockManagedToken(s, input.tokenId);
  const already = row.revoked_at !== null;
  if (!already) {
    await s.tx.update(apiTokens).set({ revoked_at: s.now }).where(eq(apiTokens.id, row.id));
    s.audit({
      action: "token.revoked",
      category: "security",
      entity_type: "api_token",
      entity_id: row.id,
      diff: { before: { revoked_at: null }, after: { revoked_at: s.now.toISOString() }, user_id: row.user_id, prefix: row.prefix },
    });
  }
  // Also when the token itself was revoked already: a descendant left live (none should be) goes now.
  const descendants = await revokeDescendants(s, row.id);
  return { detail: `API token ${row.id} ${already ? "was already revoked" : "revoked"}${andDescendants(descendants)}.` };
});
