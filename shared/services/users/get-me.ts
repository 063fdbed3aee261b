import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { publicUser } from "../auth/public-user.ts";
import type { VerbContext } from "../verb-context.ts";

/** The signed-in user, with the scopes this credential actually has. */
export async function getMe({ ctx }: { ctx: VerbContext }) {
  const actor = ctx.actor;
  if (!actor) throw ApiError.unauthorized("Authentication required.");
  if (actor.userId == null) throw ApiError.notFound("User", actor.kind);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.userId));
  if (!user) throw ApiError.notFound("User", actor.userId);
  const scopes = actor.tokenScopes ?? (await roleScopes(ctx.db, user.role));
  return { ...publicUser(user, scopes), masquerade_by: actor.masqueradeBy ?? null };
}
