// GET /users/{id}: administrators read anyone (with the lockout state); everyone else only themselves.
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { actorCan } from "../actor.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import { defineRead } from "../verb.ts";
import { type AdminUser, adminUserOf, findUser } from "./user-rows.ts";

export const getUser = defineRead<{ userId: number }, PublicUser | AdminUser>({ scope: "read:*" }, async (ctx, input) => {
  const isAdmin = actorCan(ctx.actor!, "admin:*");
  // Checked before the lookup, so a non-administrator cannot probe which ids exist.
  if (!isAdmin && ctx.actor!.userId !== input.userId) throw ApiError.forbidden("Only administrators can read other users.");
  const row = await findUser(ctx.db, input.userId);
  return isAdmin ? adminUserOf(ctx.db, row) : publicUser(row, await roleScopes(ctx.db, row.role));
});
