// Reading one scan job by id, with the reference's 404 ("Job not found") naming the id.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { scanJobs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ScanJobRow } from "./present-job.ts";

export const jobNotFound = (id: number) => new ApiError("RESOURCE_NOT_FOUND", `Job not found: there is no scan job ${id}.`);

export async function requireJob(db: Db, id: number, lock = false): Promise<ScanJobRow> {
  const query = db.select().from(scanJobs).where(eq(scanJobs.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw jobNotFound(id);
  return row;
}
