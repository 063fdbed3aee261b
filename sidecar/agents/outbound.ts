// Frames the server starts (not answers): probe.assign for the agent's queued runs and the `update` of a
// queued upgrade. Called on link and on the agent_control notices (control.ts).
import { cancelledProbeRuns, dispatchQueuedProbes, DISPATCH_PAGE } from "../../shared/verbs/agents/link/probe-dispatch.ts";
import type { AgentSession } from "./session.ts";

/** At most this many pages per call; a notice or the next link sends the rest. */
const MAX_PAGES = 10;

/** Marks the agent's queued runs dispatched and sends each as probe.assign. */
export async function dispatchProbes(session: AgentSession): Promise<void> {
  try {
    for (let page = 0; page < MAX_PAGES && session.phase === "linked"; page++) {
      const runs = await dispatchQueuedProbes({ ctx: session.env.ctx, input: { agent_id: session.agentId } });
      for (const run of runs) {
        session.send("probe.assign", { ...run });
        session.openRuns.add(run.run_id);
      }
      if (runs.length < DISPATCH_PAGE) return;
    }
  } catch (e) {
    session.env.logger.error("probe dispatch failed", { agent_id: session.agentId, error: String(e) });
  }
}

/** `update {version, sha256, signature, arch, os}` (spec/catalogue.tsv, group agents); signature: base64, of the build's SHA256SUMS entry. */
export function sendUpdate(session: AgentSession, update: Record<string, unknown>): void {
  session.send("update", {
    version: update.version,
    sha256: update.sha256,
    signature: update.signature ?? null,
    arch: update.arch ?? "amd64",
    os: update.os ?? "linux",
  });
}

/** probe.cancel for the runs this link sent that were cancelled since (the agent stops them). */
export async function cancelProbes(session: AgentSession): Promise<void> {
  if (session.openRuns.size === 0) return;
  try {
    for (const { run_id, reason } of await cancelledProbeRuns({ ctx: session.env.ctx, input: { run_ids: [...session.openRuns] } })) {
      session.send("probe.cancel", { run_id, reason });
      session.openRuns.delete(run_id);
    }
  } catch (e) {
    session.env.logger.error("probe cancel failed", { agent_id: session.agentId, error: String(e) });
  }
}
