// GET /settings/roles: built-in and custom roles with their scopes.
import type { VerbContext } from "../verb-context.ts";
import { requireScope } from "../verb.ts";
import { allRoles } from "./role-view.ts";

export async function listRoles({ ctx }: { ctx: VerbContext }) {
  requireScope(ctx, "read:settings");
  return allRoles(ctx.db);
}
