// The API shape of a role: the built-in ones (spec 5.2, read-only, no id) and the custom ones from settings.
import { asc } from "drizzle-orm";
import { type BuiltInRole, ROLE_SCOPES } from "../../auth/scopes.ts";
import type { Db } from "../../db/database.ts";
import { customRoles } from "../../db/schema/index.ts";

const BUILT_IN: Readonly<Record<BuiltInRole, string>> = {
  viewer: "Reads everything.",
  demo: "Read-only demonstration account.",
  editor: "Reads everything and edits the inventory.",
  admin: "Everything, including users, tokens, roles and settings.",
};

type CustomRoleRow = typeof customRoles.$inferSelect;

export function customRoleView(row: CustomRoleRow) {
  return {
    id: row.id as number | null,
    name: row.name,
    description: row.description,
    scopes: row.scopes,
    built_in: false,
    created_at: row.created_at.toISOString() as string | null,
    updated_at: row.updated_at.toISOString() as string | null,
  };
}
export type RoleView = ReturnType<typeof customRoleView>;

/** Every role: the built-in ones first, then the custom ones by name. */
export async function allRoles(db: Db): Promise<RoleView[]> {
  const builtIn = (Object.keys(BUILT_IN) as BuiltInRole[]).map((name) => ({
    id: null,
    name,
    description: BUILT_IN[name] as string | null,
    scopes: [...ROLE_SCOPES[name]],
    built_in: true,
    created_at: null,
    updated_at: null,
  }));
  const custom = await db.select().from(customRoles).orderBy(asc(customRoles.name));
  return [...builtIn, ...custom.map(customRoleView)];
}
