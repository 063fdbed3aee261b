// DELETE /discovery/jobs/{id}: a compare-and-set from queued|running to cancelled, so a job that finished
// meanwhile answers 409 "Job is already <status>" and keeps its outcome. The worker running it (or the
// agent it was dispatched to) hears job_cancel on discovery_control and stops within a second.
import { and, eq, inArray } from "drizzle-orm";
import { scanJobs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { OPEN_JOB_STATUSES } from "../../../schemas/discovery.ts";
import { defineVerb } from "../../verb.ts";
import { emitJobUpdate } from "../run/job-events.ts";
import { DELETE_DISCOVERY } from "../scopes.ts";
import { requireJob } from "./job-row.ts";

export const cancelScanJob = defineVerb<{ id: number }, { cancelled: true }>({ scope: DELETE_DISCOVERY }, async (s, { id }) => {
  // The row lock orders this against the worker's own writes (finish, fail): whichever comes second sees the first's status.
  const before = await requireJob(s.tx, id, true);
  const [row] = await s.tx
    .update(scanJobs)
    .set({
      status: "cancelled",
      completed_at: s.now,
      updated_at: s.now,
      error_reason: "cancelled_by_user",
      progress_phase: "cancelled",
      progress_message: "Cancelled by the user",
    })
    .where(and(eq(scanJobs.id, id), inArray(scanJobs.status, [...OPEN_JOB_STATUSES])))
    .returning();
  if (!row) throw ApiError.conflict(`Job is already ${before.status}`);
  s.audit({
    action: "discovery.job.cancel",
    category: "discovery",
    entity_type: "scan_job",
    entity_id: id,
    diff: { before: { status: before.status }, after: { status: "cancelled" } },
  });
  s.emit("discovery_control", { type: "job_cancel", job_id: id, scan_agent_id: row.scan_agent_id, dispatch_id: row.dispatch_id });
  emitJobUpdate(s, row);
  return { cancelled: true };
});
