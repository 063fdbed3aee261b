// A running job's progress (phase, message, addresses done of total). The worker throttles its calls to
// about one a second; each call also refreshes updated_at, the liveness recover.ts reads. A job no
// longer running (cancelled meanwhile) is left as it is and null answered.
import { and, eq } from "drizzle-orm";
import { scanJobs } from "../../../db/schema/index.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { emitJobUpdate, type ScanJobRow } from "./job-events.ts";

export interface ScanProgressInput {
  job_id: number;
  phase: string;
  message: string;
  addresses_done: number;
  addresses_total?: number;
}

export const reportScanProgress = defineVerb<ScanProgressInput, ScanJobRow | null>({ scope: WRITE_DISCOVERY }, async (s, p) => {
  const [row] = await s.tx
    .update(scanJobs)
    .set({
      progress_phase: p.phase.slice(0, 64),
      progress_message: p.message.slice(0, 500),
      addresses_done: Math.max(0, Math.trunc(p.addresses_done)),
      ...(p.addresses_total !== undefined ? { addresses_total: Math.max(0, Math.trunc(p.addresses_total)) } : {}),
      updated_at: s.now,
    })
    .where(and(eq(scanJobs.id, p.job_id), eq(scanJobs.status, "running")))
    .returning();
  if (row) emitJobUpdate(s, row);
  return row ?? null;
});
