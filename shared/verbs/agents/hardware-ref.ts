// A hardware node an agent is linked to must exist: 404 naming it otherwise.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { hardware } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";

export async function requireHardware(db: Db, id: number): Promise<void> {
  const [row] = await db.select({ id: hardware.id }).from(hardware).where(eq(hardware.id, id));
  if (!row) throw ApiError.notFound("Hardware node", id);
}
