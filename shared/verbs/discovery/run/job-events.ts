// The one event every scan job state change emits: `discovery {type: "job_update", job}` with the job
// as GET /discovery/jobs/{id} answers it, so /discovery/stream clients need no second read.
import type { scanJobs } from "../../../db/schema/discovery.ts";
import type { VerbScope } from "../../verb.ts";
import { presentJob } from "../jobs/present-job.ts";

export type ScanJobRow = typeof scanJobs.$inferSelect;

export function emitJobUpdate(s: VerbScope, row: ScanJobRow): void {
  s.emit("discovery", { type: "job_update", job: presentJob(row) });
}
