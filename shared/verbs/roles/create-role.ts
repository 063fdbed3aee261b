// POST /settings/roles: a custom role; a user given it gets exactly its scopes (identity/role-scopes.ts).
import { customRoles } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { checkRoleName, checkRoleScopes, nameTaken } from "./role-input.ts";
import { customRoleView } from "./role-view.ts";

export interface CreateRoleInput {
  name: string;
  description?: string | null | undefined;
  scopes: string[];
}

export const createRole = defineVerb({ scope: "admin:*" }, async (s, input: CreateRoleInput) => {
  const name = checkRoleName(input.name);
  const scopes = checkRoleScopes(s.ctx, input.scopes);
  const [row] = await s.tx
    .insert(customRoles)
    .values({ name, description: input.description ?? null, scopes, created_at: s.now, updated_at: s.now })
    .returning()
    .catch(nameTaken(name));
  const view = customRoleView(row!);
  s.audit({
    action: "role.created",
    category: "security",
    entity_type: "role",
    entity_id: view.id,
    diff: { after: { name, description: view.description, scopes } },
  });
  return view;
});
