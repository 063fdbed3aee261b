import { eq } from "drizzle-orm";
import { customRoles } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { VerbScope } from "../verb.ts";

/** The custom role, locked for the rest of the transaction; 404 when there is none with that id. */
export async function lockCustomRole(s: VerbScope, roleId: number) {
  const [row] = await s.tx.select().from(customRoles).where(eq(customRoles.id, roleId)).for("update");
  if (!row) throw ApiError.notFound("Role", roleId);
  return row;
}
