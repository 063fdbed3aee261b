// GET /auth/scopes: what may be granted, and the roles with their default scopes.
import { allRoles } from "../roles/role-view.ts";
import { requireSignedIn } from "../system/signed-in.ts";
import { defineRead } from "../verb.ts";
import { grantableScopeList, SCOPE_NARROWING_HINT } from "./scope-descriptions.ts";

export const listScopes = defineRead({ scope: requireSignedIn }, async (ctx) => ({
  scopes: grantableScopeList(),
  narrower: SCOPE_NARROWING_HINT,
  roles: await allRoles(ctx.db),
}));
