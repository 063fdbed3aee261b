// A role given to a user or an invite must exist: one of the built-in roles or a custom role.
import { eq } from "drizzle-orm";
import { isBuiltInRole } from "../../auth/scopes.ts";
import type { Db } from "../../db/database.ts";
import { customRoles } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";

export async function assertRoleExists(db: Db, role: string): Promise<void> {
  if (isBuiltInRole(role)) return;
  const [row] = await db.select({ id: customRoles.id }).from(customRoles).where(eq(customRoles.name, role));
  if (!row)
    throw ApiError.validation([
      {
        loc: ["body", "role"],
        msg: `Unknown role "${role}": use viewer, editor, admin, demo or the name of a custom role.`,
        type: "unknown_role",
      },
    ]);
}
