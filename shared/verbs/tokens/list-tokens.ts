// GET /auth/api-tokens: the caller's own tokens, or (admins, ?all=true) everyone's, service accounts included.
import { desc, eq } from "drizzle-orm";
import { apiTokens, users } from "../../db/schema/index.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineRead, requireScope } from "../verb.ts";
import { requireCredential, requireUser } from "./grant.ts";
import { tokenSummary } from "./token-view.ts";

type ListTokensInput = { all: boolean };

/** Everyone's tokens take an administrator; one's own, any user. */
function mayList(ctx: VerbContext, input: ListTokensInput): void {
  if (!input.all) {
    requireUser(ctx);
    return;
  }
  requireScope(ctx, "admin:*");
  requireCredential(ctx);
}

export const listApiTokens = defineRead({ scope: mayList }, async (ctx, input: ListTokensInput) => {
  const owner = input.all ? undefined : requireUser(ctx).userId;
  const rows = await ctx.db
    .select({ token: apiTokens, email: users.email })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.user_id))
    .where(owner === undefined ? undefined : eq(apiTokens.user_id, owner))
    .orderBy(desc(apiTokens.created_at), desc(apiTokens.id));
  const now = ctx.clock.now();
  return rows.map((r) => tokenSummary(r.token, r.email, now));
});
