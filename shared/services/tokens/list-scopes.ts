// GET /auth/scopes: what may be granted, and the roles with their default scopes.
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { allRoles } from "../roles/role-view.ts";
import { grantableScopeList, SCOPE_NARROWING_HINT } from "./scope-descriptions.ts";

export async function listScopes({ ctx }: { ctx: VerbContext }) {
  if (!ctx.actor) throw ApiError.unauthorized("Authentication required.");
  return { scopes: grantableScopeList(), narrower: SCOPE_NARROWING_HINT, roles: await allRoles(ctx.db) };
}
