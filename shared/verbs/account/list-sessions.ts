// GET /users/me/sessions: the caller's live sessions (never their tokens), the current one marked.
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { sessions } from "../../db/schema/index.ts";
import { defineRead } from "../verb.ts";
import { requireOwnAccount } from "./self.ts";

export const listMySessions = defineRead({ scope: requireOwnAccount }, async (ctx) => {
  const me = requireOwnAccount(ctx);
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.user_id, me.userId), isNull(sessions.revoked_at), gt(sessions.expires_at, ctx.clock.now())))
    .orderBy(desc(sessions.created_at), sessions.id);
  return rows.map((r) => ({
    id: r.id,
    created_at: r.created_at.toISOString(),
    last_seen_at: r.last_seen_at?.toISOString() ?? null,
    expires_at: r.expires_at.toISOString(),
    ip_address: r.ip_address,
    user_agent: r.user_agent,
    current: r.id === me.sessionId,
  }));
});
