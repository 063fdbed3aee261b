// Creates a server-side session row and its signed JWT. The row is what makes revocation immediate:
// every request checks it (shared/identity/resolve.ts).
import { mintCsrfToken } from "../../auth/csrf-token.ts";
import { sessions } from "../../db/schema/index.ts";
import { readSetting } from "../../settings/read.ts";
import { AUDIENCE, signToken } from "../../identity/tokens.ts";
import type { VerbScope } from "../verb.ts";

export interface IssuedSession {
  sessionId: string;
  token: string;
  /** Bound to this session (shared/auth/csrf-token.ts): what functions/middleware/csrf.ts accepts. */
  csrfToken: string;
  expiresAt: Date;
  maxAgeSeconds: number;
}

export async function issueSession(
  scope: VerbScope,
  key: Uint8Array,
  userId: number,
  opts: { userAgent?: string | null; masqueradeBy?: number; ttlSeconds?: number } = {},
): Promise<IssuedSession> {
  const { tx, ctx, now } = scope;
  const hours = await readSetting(tx, "session_timeout_hours");
  const maxAgeSeconds = opts.ttlSeconds ?? Math.max(1, Math.round(hours * 3600));
  const expiresAt = new Date(now.getTime() + maxAgeSeconds * 1000);
  const sessionId = ctx.random.uuid();
  await tx.insert(sessions).values({
    id: sessionId,
    user_id: userId,
    created_at: now,
    expires_at: expiresAt,
    ip_address: ctx.ip ?? null,
    user_agent: opts.userAgent?.slice(0, 300) ?? null,
    masquerade_by: opts.masqueradeBy ?? null,
  });
  const token = await signToken(key, AUDIENCE.session, { userId, sid: sessionId }, now, maxAgeSeconds);
  return { sessionId, token, csrfToken: mintCsrfToken(key, sessionId, ctx.random), expiresAt, maxAgeSeconds };
}
