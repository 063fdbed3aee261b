// GET /users/{id}: administrators read anyone (with the lockout state); everyone else only themselves.
import { actorCan } from "../actor.ts";
import type { VerbContext } from "../verb-context.ts";
import { requireScope } from "../verb.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { publicUser, type PublicUser } from "../auth/public-user.ts";
import { type AdminUser, adminUserOf, findUser } from "./user-rows.ts";

export async function getUser({ ctx, input }: { ctx: VerbContext; input: { userId: number } }): Promise<PublicUser | AdminUser> {
  requireScope(ctx, "read:*");
  const isAdmin = actorCan(ctx.actor!, "admin:*");
  // Checked before the lookup, so a non-administrator cannot probe which ids exist.
  if (!isAdmin && ctx.actor!.userId !== input.userId)
    throw ApiError.forbidden("Only administrators can read other users.");
  const row = await findUser(ctx.db, input.userId);
  return isAdmin ? adminUserOf(ctx.db, row) : publicUser(row, await roleScopes(ctx.db, row.role));
}
