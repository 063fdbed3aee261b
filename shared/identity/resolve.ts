// Turns a presented credential into an Actor, or says why it is refused. Revocation, expiry and
// deactivation are checked against the database on every request, so they apply at once.
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { parseApiToken, verifyApiToken } from "../auth/api-token.ts";
import { ROLE_SCOPES } from "../auth/scopes.ts";
import type { Db } from "../db/database.ts";
import { apiTokens, sessions, users } from "../db/schema/index.ts";
import type { Actor } from "../services/actor.ts";
import { roleScopes } from "./role-scopes.ts";
import { AUDIENCE, verifyToken } from "./tokens.ts";

export type Resolution = { actor: Actor } | { error: string };

const TOUCH_INTERVAL = sql`interval '1 minute'`;
const TOUCH_MS = 60_000;

/** Whether a "last used" stamp is due for rewriting (the update re-checks, for concurrent requests). */
function isStale(stamp: Date | null, now: Date): boolean {
  return stamp === null || now.getTime() - stamp.getTime() >= TOUCH_MS;
}

export function isApiToken(credential: string): boolean {
  return parseApiToken(credential) !== null;
}

export async function resolveSession(db: Db, key: Uint8Array, jwt: string, now: Date): Promise<Resolution> {
  const claims = await verifyToken(key, AUDIENCE.session, jwt, now);
  if (!claims?.sid) return { error: "The session token is invalid or has expired." };
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(eq(sessions.id, claims.sid));
  if (!row || row.user.id !== claims.userId) return { error: "The session no longer exists." };
  if (row.session.revoked_at) return { error: "The session was revoked." };
  if (row.session.expires_at <= now) return { error: "The session has expired." };
  if (!row.user.is_active) return { error: "The account is disabled." };
  // last_seen_at is written at most once a minute, not on every request (and not even read back twice).
  if (isStale(row.session.last_seen_at, now))
    await db
      .update(sessions)
      .set({ last_seen_at: now })
      .where(and(eq(sessions.id, row.session.id), or(isNull(sessions.last_seen_at), lt(sessions.last_seen_at, sql`${now.toISOString()}::timestamptz - ${TOUCH_INTERVAL}`))));
  const actor: Actor = {
    userId: row.user.id,
    email: row.user.email,
    role: row.user.role,
    roleScopes: await roleScopes(db, row.user.role),
    kind: "session",
    sessionId: row.session.id,
  };
  if (row.session.masquerade_by != null) actor.masqueradeBy = row.session.masquerade_by;
  return { actor };
}

export async function resolveApiToken(db: Db, token: string, now: Date): Promise<Resolution> {
  const parsed = parseApiToken(token);
  if (!parsed) return { error: "The API token is malformed." };
  const [row] = await db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.user_id))
    .where(eq(apiTokens.prefix, parsed.prefix));
  // The hash is checked before anything about the row is revealed.
  if (!row || !verifyApiToken(token, row.token.token_hash)) return { error: "The API token is invalid." };
  if (row.token.revoked_at) return { error: "The API token was revoked." };
  if (row.token.expires_at && row.token.expires_at <= now) return { error: "The API token has expired." };
  if (!row.user.is_active) return { error: "The account that owns this token is disabled." };
  if (isStale(row.token.last_used_at, now))
    await db
    .update(apiTokens)
    .set({ last_used_at: now })
    .where(and(eq(apiTokens.id, row.token.id), or(isNull(apiTokens.last_used_at), lt(apiTokens.last_used_at, sql`${now.toISOString()}::timestamptz - ${TOUCH_INTERVAL}`))));
  return {
    actor: {
      userId: row.user.id,
      email: row.user.email,
      role: row.user.role,
      roleScopes: await roleScopes(db, row.user.role),
      tokenScopes: row.token.scopes,
      kind: "api_token",
      tokenId: row.token.id,
    },
  };
}

/** The deprecated static token's old grant (only with SVC_LEGACY_AUTH=true). */
export const LEGACY_ACTOR: Actor = {
  userId: null,
  email: null,
  role: "admin",
  roleScopes: [...ROLE_SCOPES.admin],
  kind: "legacy_token",
};

/** The admin-equivalent grant of first run (spec 5.4), limited by the caller to the first-run routes. */
export const FIRST_RUN_ACTOR: Actor = {
  userId: null,
  email: null,
  role: "admin",
  roleScopes: [...ROLE_SCOPES.admin],
  kind: "first_run",
};
