// GET /auth/api-tokens: the caller's own tokens, or (admins, ?all=true) everyone's, service accounts included.
import { desc, eq } from "drizzle-orm";
import { apiTokens, users } from "../../db/schema/index.ts";
import type { VerbContext } from "../verb-context.ts";
import { requireScope } from "../verb.ts";
import { requireCredential, requireUser } from "./grant.ts";
import { tokenSummary } from "./token-view.ts";

export async function listApiTokens({ ctx, input }: { ctx: VerbContext; input: { all: boolean } }) {
  let owner: number | undefined;
  if (input.all) {
    requireScope(ctx, "admin:*");
    requireCredential(ctx);
  } else owner = requireUser(ctx).userId;
  const rows = await ctx.db
    .select({ token: apiTokens, email: users.email })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.user_id))
    .where(owner === undefined ? undefined : eq(apiTokens.user_id, owner))
    .orderBy(desc(apiTokens.created_at), desc(apiTokens.id));
  const now = ctx.clock.now();
  return rows.map((r) => tokenSummary(r.token, r.email, now));
}
