// Loading one monitor row, 404 "Monitor not found" naming the id when there is none.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { monitors } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";

export type MonitorRow = typeof monitors.$inferSelect;

export async function findMonitor(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<MonitorRow | undefined> {
  const query = db.select().from(monitors).where(eq(monitors.id, id));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  return row;
}

export async function requireMonitor(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<MonitorRow> {
  const row = await findMonitor(db, id, opts);
  if (!row) throw ApiError.notFound("Monitor", id);
  return row;
}
