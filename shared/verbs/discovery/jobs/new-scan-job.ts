// The fields of a scan job about to be inserted, on their own so that the planners (firewall-job.ts,
// enrich-job.ts, profiles/run-profile.ts) name them without importing the verb that calls them.
import type { scanJobs } from "../../../db/schema/index.ts";

export type NewScanJob = Partial<Omit<typeof scanJobs.$inferInsert, "id" | "status" | "created_at" | "updated_at">> & {
  source_type: string;
  scan_types: string[];
};
