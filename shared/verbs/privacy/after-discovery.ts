// The hook discovery calls when a run completed: a privacy snapshot of what the run found. Its own
// transaction after the job's, and failure-isolated: whatever goes wrong here is logged and never
// changes how the discovery run ended.
import type { Logger } from "../../logger.ts";
import type { VerbContext } from "../verb-context.ts";
import { takePrivacySnapshot } from "./take-snapshot.ts";

export async function analyseAfterDiscovery(ctx: VerbContext, logger: Logger, scanJobId: number): Promise<void> {
  try {
    const out = await takePrivacySnapshot({ ctx, input: { trigger: "discovery", scan_job_id: scanJobId } });
    if (out.new_findings > 0)
      logger.info("privacy analysis found new findings", {
        scan_job_id: scanJobId,
        snapshot_id: out.snapshot_id,
        score: out.score,
        new_findings: out.new_findings,
      });
  } catch (e) {
    logger.warn("privacy analysis after a discovery run failed; the run is unaffected", {
      scan_job_id: scanJobId,
      error: e instanceof Error ? e : String(e),
    });
  }
}
