// The API shapes of a token row. The hash never leaves the service; the plaintext only in `issuedToken`,
// the one answer that creates or rotates it.
import type { apiTokens } from "../../db/schema/index.ts";

type TokenRow = typeof apiTokens.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The answer of create, rotate and service-account: the plaintext is shown here once. */
export function issuedToken(row: TokenRow, token: string) {
  return {
    id: row.id,
    token,
    label: row.label,
    scopes: row.scopes,
    expires_at: iso(row.expires_at),
    created_at: row.created_at.toISOString(),
    prefix: row.prefix,
  };
}
export type IssuedToken = ReturnType<typeof issuedToken>;

export function tokenSummary(row: TokenRow, email: string, now: Date) {
  return {
    id: row.id,
    user_id: row.user_id,
    email,
    label: row.label,
    prefix: row.prefix,
    scopes: row.scopes,
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
    created_at: row.created_at.toISOString(),
    expired: row.expires_at !== null && row.expires_at <= now,
  };
}

/** What the audit log keeps of a token: never the secret or its hash. */
export function auditedToken(row: TokenRow) {
  return {
    user_id: row.user_id,
    label: row.label,
    prefix: row.prefix,
    scopes: row.scopes,
    expires_at: iso(row.expires_at),
    parent_token_id: row.parent_token_id,
  };
}
