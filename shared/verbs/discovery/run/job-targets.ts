// A job's targets: its list, or the reference's single target_cidr (jobs the original's clients made).
import type { ScanJobRow } from "./job-events.ts";

export function jobTargets(job: Pick<ScanJobRow, "targets" | "target_cidr">): string[] {
  return job.targets.length > 0 ? job.targets : job.target_cidr ? [job.target_cidr] : [];
}
