// Drift between two scans of the same ground (issue 13): filled in below.
import type { VerbScope } from "../../verb.ts";

export async function reportDrift(s: VerbScope, jobId: number): Promise<void> {
  void s;
  void jobId;
}
