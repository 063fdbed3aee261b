// Frames the server starts (not answers): probe.assign for the agent's queued runs and the `update` of a
// queued upgrade. Called on link and on the agent_control notices (control.ts).
import { dispatchQueuedProbes, DISPATCH_PAGE } from "../../shared/services/agents/link/probe-dispatch.ts";
import type { AgentSession } from "./session.ts";

/** At most this many pages per call; a notice or the next link sends the rest. */
const MAX_PAGES = 10;

/** Marks the agent's queued runs dispatched and sends each as probe.assign. */
export async function dispatchProbes(session: AgentSession): Promise<void> {
  try {
    for (let page = 0; page < MAX_PAGES && session.phase === "linked"; page++) {
      const runs = await dispatchQueuedProbes({ ctx: session.env.ctx, input: { agent_id: session.agentId } });
      for (const run of runs) session.send("probe.assign", { ...run });
      if (runs.length < DISPATCH_PAGE) return;
    }
  } catch (e) {
    session.env.logger.error("probe dispatch failed", { agent_id: session.agentId, error: String(e) });
  }
}

/** `update {version, sha256, arch, os}` (reference-contracts.md 3). */
export function sendUpdate(session: AgentSession, update: Record<string, unknown>): void {
  session.send("update", { version: update.version, sha256: update.sha256, arch: update.arch ?? "amd64", os: update.os ?? "linux" });
}
