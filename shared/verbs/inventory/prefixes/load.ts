// A prefix as its sub-routes address it: 404 when missing; `lock` takes the row FOR UPDATE so that
// allocations inside one parent run one at a time.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { prefixes } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";

export async function loadPrefix(db: Db, id: number, { lock = false } = {}) {
  const q = db.select().from(prefixes).where(eq(prefixes.id, id));
  const [row] = await (lock ? q.for("update") : q);
  if (!row) throw ApiError.notFound("Prefix", id);
  return row;
}
