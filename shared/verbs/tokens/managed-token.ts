// The token a revoke or rotate acts on: the caller's own, or anyone's for an administrator. Someone else's
// token is "not found" rather than "forbidden", so ids reveal nothing. A caller using an API token can
// only manage tokens no wider than that token.
import { eq } from "drizzle-orm";
import { scopesWithin } from "../../auth/scopes.ts";
import { apiTokens } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { actorCan } from "../actor.ts";
import type { VerbScope } from "../verb.ts";
import { requireCredential } from "./grant.ts";

export async function lockManagedToken(s: VerbScope, tokenId: number) {
  const actor = requireCredential(s.ctx);
  const [row] = await s.tx.select().from(apiTokens).where(eq(apiTokens.id, tokenId)).for("update");
  if (!row || (row.user_id !== actor.userId && !actorCan(actor, "admin:*"))) throw ApiError.notFound("API token", tokenId);
  if (actor.tokenScopes && !scopesWithin(row.scopes, actor.tokenScopes))
    throw ApiError.forbidden(`API token ${tokenId} has scopes wider than the API token you are using.`);
  return row;
}
