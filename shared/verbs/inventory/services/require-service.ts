// The service a sub-resource route names: 404 "Service <id> was not found." when it does not exist.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { services } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";

export async function requireService(db: Db, id: number): Promise<typeof services.$inferSelect> {
  const [row] = await db.select().from(services).where(eq(services.id, id));
  if (!row) throw ApiError.notFound("Service", id);
  return row;
}
