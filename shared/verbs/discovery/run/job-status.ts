// The status of the jobs a worker holds: the safety net under a missed job_cancel notice (the poll
// aborts a job whose row is no longer running).
import { inArray } from "drizzle-orm";
import { scanJobs } from "../../../db/schema/index.ts";
import { defineRead } from "../../verb.ts";
import { READ_DISCOVERY } from "../scopes.ts";

export const readJobStatuses = defineRead<{ ids: number[] }, Map<number, string>>({ scope: READ_DISCOVERY }, async (ctx, { ids }) => {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.select({ id: scanJobs.id, status: scanJobs.status }).from(scanJobs).where(inArray(scanJobs.id, ids));
  return new Map(rows.map((r) => [r.id, r.status]));
});
