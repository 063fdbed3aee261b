// POST /auth/cli-login/token (docs/adr/0504): the CLI trades the code its loopback listener received,
// with its PKCE verifier and the same redirect URI, for a new API token (created like POST
// /auth/api-token's, hashed at rest, the plaintext in this answer only). Public: the code is the
// credential. A code is tried once whatever the outcome; every refusal is audited and committed, and a
// replay also revokes the token the first use issued (RFC 6749, section 4.1.2: the code leaked).
import { and, eq, isNull } from "drizzle-orm";
import { timingSafeEqualString } from "../../auth/constant-time.ts";
import { pkceChallenge, sha256Hex } from "../../auth/sha256.ts";
import { apiTokens, cliLoginCodes, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { scopesWithinRole } from "../tokens/grant.ts";
import { insertToken } from "../tokens/insert-token.ts";
import { revokeDescendants } from "../tokens/lineage.ts";
import type { IssuedToken } from "../tokens/token-view.ts";

export interface ExchangeInput {
  code: string;
  code_verifier: string;
  redirect_uri: string;
}

type CodeRow = typeof cliLoginCodes.$inferSelect;
type Reason = "unknown_code" | "replayed" | "expired" | "redirect_uri_mismatch" | "wrong_verifier" | "account_disabled" | "scopes_narrowed";

/** What the CLI is told: the OAuth error word beside the envelope's code, and no hint which check failed. */
const DETAIL: Record<Reason, string> = {
  unknown_code: "The authorization code is invalid, expired or already used; run `lab login --browser` again.",
  replayed: "The authorization code is invalid, expired or already used; run `lab login --browser` again.",
  expired: "The authorization code is invalid, expired or already used; run `lab login --browser` again.",
  redirect_uri_mismatch: "The authorization code was not issued for this redirect_uri and code_verifier.",
  wrong_verifier: "The authorization code was not issued for this redirect_uri and code_verifier.",
  account_disabled: "The account that approved the sign-in is disabled.",
  scopes_narrowed: "The approving account's role no longer holds the approved scopes; approve the sign-in again.",
};

function refusal(s: VerbScope, row: CodeRow | undefined, reason: Reason, extra: Record<string, unknown> = {}) {
  s.audit({
    action: "cli_login.refused",
    category: "security",
    level: "warning",
    entity_type: row ? "cli_login" : null,
    entity_id: row?.id ?? null,
    diff: { reason, user_id: row?.user_id ?? null, ...extra },
  });
  return s.refuse(new ApiError("BAD_REQUEST", DETAIL[reason], { error: "invalid_grant" }));
}

/** The token a replayed code issued, and every token made through it, stop working now. */
async function revokeIssued(s: VerbScope, tokenId: number | null): Promise<boolean> {
  if (tokenId === null) return false;
  const [row] = await s.tx
    .update(apiTokens)
    .set({ revoked_at: s.now })
    .where(and(eq(apiTokens.id, tokenId), isNull(apiTokens.revoked_at)))
    .returning({ id: apiTokens.id, user_id: apiTokens.user_id, prefix: apiTokens.prefix });
  if (row)
    s.audit({
      action: "token.revoked",
      category: "security",
      entity_type: "api_token",
      entity_id: row.id,
      diff: { after: { revoked_at: s.now.toISOString() }, user_id: row.user_id, prefix: row.prefix, reason: "cli_login_code_replayed" },
    });
  await revokeDescendants(s, tokenId);
  return row !== undefined;
}

export const exchangeCliLoginCode = defineVerb<ExchangeInput, IssuedToken>({ scope: "public" }, async (s, input) => {
  const [row] = await s.tx
    .select()
    .from(cliLoginCodes)
    .where(eq(cliLoginCodes.code_hash, await sha256Hex(input.code)))
    .for("update");
  if (!row) return refusal(s, row, "unknown_code");
  if (row.used_at) return refusal(s, row, "replayed", { token_revoked: await revokeIssued(s, row.token_id) });
  await s.tx.update(cliLoginCodes).set({ used_at: s.now }).where(eq(cliLoginCodes.id, row.id));
  if (row.expires_at <= s.now) return refusal(s, row, "expired");
  // Both checks run whatever the first answers, so the time taken does not say which one failed.
  const sameRedirect = timingSafeEqualString(row.redirect_uri, input.redirect_uri);
  const sameChallenge = timingSafeEqualString(row.code_challenge, await pkceChallenge(input.code_verifier));
  if (!sameRedirect) return refusal(s, row, "redirect_uri_mismatch");
  if (!sameChallenge) return refusal(s, row, "wrong_verifier");
  // The approval was checked against the role a minute ago; the role may have changed since.
  const [user] = await s.tx.select({ active: users.is_active, role: users.role }).from(users).where(eq(users.id, row.user_id));
  if (!user?.active) return refusal(s, row, "account_disabled");
  if (!scopesWithinRole(row.scopes, await roleScopes(s.tx, user.role))) return refusal(s, row, "scopes_narrowed");
  const issued = await insertToken(s, {
    userId: row.user_id,
    label: row.label,
    scopes: row.scopes,
    expiresAt: row.token_expires_at,
    createdBy: row.user_id,
    parentTokenId: null,
  });
  await s.tx.update(cliLoginCodes).set({ token_id: issued.id }).where(eq(cliLoginCodes.id, row.id));
  s.audit({
    action: "cli_login.exchanged",
    category: "security",
    entity_type: "cli_login",
    entity_id: row.id,
    diff: { user_id: row.user_id, token_id: issued.id, client_name: row.client_name },
  });
  return issued;
});
