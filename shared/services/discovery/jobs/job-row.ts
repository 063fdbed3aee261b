// Reading one scan job by id, with the reference's 404 ("Job not found") naming the id.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { scanJobs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ScanJobRow } from "./present-job.ts";

export const jobNotFound = (id: number) => new ApiError("RESOURCE_NOT_FOUND", `Job not found: there is no scan job ${id}.`);

export async function requireJob(db: Db, id: number): Promise<ScanJobRow> {
  const [row] = await db.select().from(scanJobs).where(eq(scanJobs.id, id));
  if (!row) throw jobNotFound(id);
  return row;
}
