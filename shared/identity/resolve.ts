// Turns a presented credential into an Actor, or says why it is refused. Revocation, expiry and
// deactivation are checked against the database on every resolution; a process remembers successes
// for a few seconds at most and forgets them on any credential change (credential-cache.ts).
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { parseApiToken, verifyApiToken } from "../auth/api-token.ts";
import { ROLE_SCOPES } from "../auth/scopes.ts";
import type { Db } from "../db/database.ts";
import { preparedPerDb } from "../db/prepared.ts";
import { apiTokens, sessions, users } from "../db/schema/index.ts";
import type { Actor } from "../verbs/actor.ts";
import { roleScopes } from "./role-scopes.ts";
import { AUDIENCE, verifyToken } from "./tokens.ts";

/** A success says until when (epoch ms) the credential itself stays valid, for the credential cache. */
export type Resolution = { actor: Actor; expiresAt?: number } | { error: string };

const TOUCH_INTERVAL = sql`interval '1 minute'`;
const TOUCH_MS = 60_000;

/** Whether a "last used" stamp is due for rewriting (the update re-checks, for concurrent requests). */
function isStale(stamp: Date | null, now: Date): boolean {
  return stamp === null || now.getTime() - stamp.getTime() >= TOUCH_MS;
}

export function isApiToken(credential: string): boolean {
  return parseApiToken(credential) !== null;
}

// Only the columns a resolution reads.
const account = { user_id: users.id, email: users.email, role: users.role, is_active: users.is_active };

const sessionById = preparedPerDb((db) =>
  db
    .select({
      ...account,
      id: sessions.id,
      expires_at: sessions.expires_at,
      last_seen_at: sessions.last_seen_at,
      revoked_at: sessions.revoked_at,
      masquerade_by: sessions.masquerade_by,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(eq(sessions.id, sql.placeholder("sid")))
    .prepare("session_by_id"),
);

const tokenByPrefix = preparedPerDb((db) =>
  db
    .select({
      ...account,
      id: apiTokens.id,
      token_hash: apiTokens.token_hash,
      scopes: apiTokens.scopes,
      expires_at: apiTokens.expires_at,
      last_used_at: apiTokens.last_used_at,
      revoked_at: apiTokens.revoked_at,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.user_id))
    .where(eq(apiTokens.prefix, sql.placeholder("prefix")))
    .prepare("api_token_by_prefix"),
);

export async function resolveSession(db: Db, key: Uint8Array, jwt: string, now: Date): Promise<Resolution> {
  const claims = await verifyToken(key, AUDIENCE.session, jwt, now);
  if (!claims?.sid) return { error: "The session token is invalid or has expired." };
  const [row] = await sessionById(db).execute({ sid: claims.sid });
  if (!row || row.user_id !== claims.userId) return { error: "The session no longer exists." };
  if (row.revoked_at) return { error: "The session was revoked." };
  if (row.expires_at <= now) return { error: "The session has expired." };
  if (!row.is_active) return { error: "The account is disabled." };
  // last_seen_at is written at most once a minute, not on every request (and not even read back twice).
  if (isStale(row.last_seen_at, now))
    await db
      .update(sessions)
      .set({ last_seen_at: now })
      .where(
        and(
          eq(sessions.id, row.id),
          or(isNull(sessions.last_seen_at), lt(sessions.last_seen_at, sql`${now.toISOString()}::timestamptz - ${TOUCH_INTERVAL}`)),
        ),
      );
  const actor: Actor = {
    userId: row.user_id,
    email: row.email,
    role: row.role,
    roleScopes: await roleScopes(db, row.role),
    kind: "session",
    sessionId: row.id,
  };
  if (row.masquerade_by != null) actor.masqueradeBy = row.masquerade_by;
  const jwtExpiry = claims.exp === undefined ? Number.POSITIVE_INFINITY : claims.exp * 1000;
  return { actor, expiresAt: Math.min(row.expires_at.getTime(), jwtExpiry) };
}

export async function resolveApiToken(db: Db, token: string, now: Date): Promise<Resolution> {
  const parsed = parseApiToken(token);
  if (!parsed) return { error: "The API token is malformed." };
  const [row] = await tokenByPrefix(db).execute({ prefix: parsed.prefix });
  // The hash is checked before anything about the row is revealed.
  if (!row || !verifyApiToken(token, row.token_hash)) return { error: "The API token is invalid." };
  if (row.revoked_at) return { error: "The API token was revoked." };
  if (row.expires_at && row.expires_at <= now) return { error: "The API token has expired." };
  if (!row.is_active) return { error: "The account that owns this token is disabled." };
  if (isStale(row.last_used_at, now))
    await db
      .update(apiTokens)
      .set({ last_used_at: now })
      .where(
        and(
          eq(apiTokens.id, row.id),
          or(isNull(apiTokens.last_used_at), lt(apiTokens.last_used_at, sql`${now.toISOString()}::timestamptz - ${TOUCH_INTERVAL}`)),
        ),
      );
  return {
    actor: {
      userId: row.user_id,
      email: row.email,
      role: row.role,
      roleScopes: await roleScopes(db, row.role),
      tokenScopes: row.scopes,
      kind: "api_token",
      tokenId: row.id,
    },
    expiresAt: row.expires_at ? row.expires_at.getTime() : Number.POSITIVE_INFINITY,
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
