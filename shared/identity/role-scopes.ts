import { eq } from "drizzle-orm";
import { isBuiltInRole, ROLE_SCOPES } from "../auth/scopes.ts";
import type { Db } from "../db/database.ts";
import { customRoles } from "../db/schema/index.ts";

/** The scopes of a role: a built-in one (spec 5.2) or a custom role from settings; unknown -> none. */
export async function roleScopes(db: Db, role: string): Promise<string[]> {
  if (isBuiltInRole(role)) return [...ROLE_SCOPES[role]];
  const [row] = await db.select({ scopes: customRoles.scopes }).from(customRoles).where(eq(customRoles.name, role));
  return row?.scopes ?? [];
}
