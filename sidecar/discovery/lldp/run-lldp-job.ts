// The runner of an `lldp` enrichment job (contracts D). Being written: refuses for now.
import type { JobRun } from "../job-runner.ts";

export async function runLldpJob(run: JobRun): Promise<void> {
  throw new Error(`LLDP enrichment of job ${run.job.id} is not available yet in this build.`);
}
