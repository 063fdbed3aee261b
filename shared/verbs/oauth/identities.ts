// The provider identities bound to a user: listed and removed by the user (own account) and by an
// administrator (any user). Removing one is audited; the user keeps their other ways in.
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { oauthIdentities, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { requireOwnAccount, requireSelfWrite } from "../account/self.ts";
import { defineRead, defineVerb, type VerbScope } from "../verb.ts";

const ADMIN_SCOPE = "admin:*";

export interface IdentityOut {
  id: number;
  provider: string;
  issuer: string;
  subject: string;
  email: string | null;
  created_at: string;
  last_login_at: string | null;
}

async function listFor(db: Db, userId: number): Promise<IdentityOut[]> {
  const rows = await db.select().from(oauthIdentities).where(eq(oauthIdentities.user_id, userId)).orderBy(asc(oauthIdentities.id));
  return rows.map((r) => ({
    id: r.id,
    provider: r.provider,
    issuer: r.issuer,
    subject: r.subject,
    email: r.email,
    created_at: r.created_at.toISOString(),
    last_login_at: r.last_login_at?.toISOString() ?? null,
  }));
}

async function removeFor(s: VerbScope, userId: number, identityId: number): Promise<{ detail: string }> {
  const [row] = await s.tx
    .delete(oauthIdentities)
    .where(and(eq(oauthIdentities.id, identityId), eq(oauthIdentities.user_id, userId)))
    .returning();
  if (!row) throw ApiError.notFound("OAuth identity", identityId);
  s.audit({
    action: "user.oauth_unlinked",
    category: "security",
    entity_type: "user",
    entity_id: userId,
    diff: { before: { identity_id: row.id, provider: row.provider, issuer: row.issuer, email: row.email } },
  });
  return { detail: "Provider account unlinked." };
}

export const listMyIdentities = defineRead({ scope: requireOwnAccount }, async (ctx) => listFor(ctx.db, requireOwnAccount(ctx).userId));

export const unlinkMyIdentity = defineVerb<{ identityId: number }, { detail: string }>({ scope: requireSelfWrite }, async (s, input) =>
  removeFor(s, requireSelfWrite(s.ctx).userId, input.identityId),
);

export const listUserIdentities = defineRead<{ userId: number }, IdentityOut[]>({ scope: ADMIN_SCOPE }, async (ctx, input) => {
  const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
  if (!user) throw ApiError.notFound("User", input.userId);
  return listFor(ctx.db, input.userId);
});

export const unlinkUserIdentity = defineVerb<{ userId: number; identityId: number }, { detail: string }>(
  { scope: ADMIN_SCOPE },
  async (s, input) => removeFor(s, input.userId, input.identityId),
);
