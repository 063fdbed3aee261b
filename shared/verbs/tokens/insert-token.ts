import { apiTokens } from "../../db/schema/index.ts";
import type { VerbScope } from "../verb.ts";
import { withFreshToken } from "./fresh-token.ts";
import { auditedToken, type IssuedToken, issuedToken } from "./token-view.ts";

export interface NewToken {
  userId: number;
  label: string;
  scopes: string[];
  expiresAt: Date | null;
  createdBy: number;
  /** The API token the request came through (lineage.ts), null for a session. */
  parentTokenId: number | null;
}

/** Inserts a token row and records token.created; answers the plaintext once. */
export async function insertToken(s: VerbScope, t: NewToken): Promise<IssuedToken> {
  const { result: row, token } = await withFreshToken(s, async (tx, fresh) => {
    const [inserted] = await tx
      .insert(apiTokens)
      .values({
        user_id: t.userId,
        label: t.label,
        prefix: fresh.prefix,
        token_hash: fresh.token_hash,
        scopes: t.scopes,
        expires_at: t.expiresAt,
        created_by: t.createdBy,
        parent_token_id: t.parentTokenId,
        created_at: s.now,
      })
      .returning();
    return inserted!;
  });
  s.audit({
    action: "token.created",
    category: "security",
    entity_type: "api_token",
    entity_id: row.id,
    diff: { after: auditedToken(row) },
  });
  return issuedToken(row, token);
}
