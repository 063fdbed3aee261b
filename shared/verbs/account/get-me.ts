// GET /users/me and GET /auth/me: the signed-in user, with the scopes this credential actually has.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { publicUser } from "../auth/public-user.ts";
import { requireSignedIn } from "../system/signed-in.ts";
import { defineRead } from "../verb.ts";

export const getMe = defineRead({ scope: requireSignedIn }, async (ctx) => {
  const actor = ctx.actor!;
  if (actor.userId == null) throw ApiError.notFound("User", actor.kind);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.userId));
  if (!user) throw ApiError.notFound("User", actor.userId);
  const scopes = actor.tokenScopes ?? (await roleScopes(ctx.db, user.role));
  return { ...publicUser(user, scopes), masquerade_by: actor.masqueradeBy ?? null };
});
