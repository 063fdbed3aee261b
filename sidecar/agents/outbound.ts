// Frames the server starts (not answers): probe.assign for the agent's queued runs and the `update` of a
// queued upgrade (docs/adr/0430). Called on link and on the agent_control notices (control.ts).
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

/**
 * `update {version, sha256, signature, arch, os}` (spec/catalogue.tsv, group agents; the signature is the
 * release key's over the build's SHA256SUMS entry, which the agent verifies before it runs anything).
 * Sent once (docs/adr/0430): the send is recorded as the update's sent_at, and an update with one is not
 * sent again, on this link or the next. A build for another os/arch than the agent's hello reported is
 * never sent: it is recorded as the agent's `update_failed` (reported_by server) and withdrawn, which a
 * rollout counts as that target's failure.
 */
export function sendUpdate(session: AgentSession, update: Record<string, unknown>): void {
  if (update.sent_at) return;
  const { batcher, clock, logger } = session.env;
  const os = typeof update.os === "string" ? update.os : "linux";
  const arch = typeof update.arch === "string" ? update.arch : "amd64";
  const version = String(update.version);
  if (os !== session.platform.os || arch !== session.platform.arch) {
    const error = `not sent: the build is for ${os}/${arch}, the agent runs ${session.platform.os}/${session.platform.arch}`;
    logger.warn("agent update refused", { agent_id: session.agentId, version, error });
    const detail = { version, error, reported_by: "server" };
    return batcher.updateRefused(
      { agent_id: session.agentId, event_type: "update_failed", detail, at: clock.now().toISOString() },
      version,
    );
  }
  session.send("update", { version, sha256: update.sha256, signature: update.signature ?? null, arch, os });
  batcher.updateSent(session.agentId, version);
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
