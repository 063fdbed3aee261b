// Agents' discovery on this sidecar (issue 13 item 4): the queued jobs of the agents whose links this
// process holds go out as `discovery.request` (when the agent links, on a job_queued notice, and on
// every poll as the safety net); a cancel goes out as `discovery.cancel`; the agent's discovery.finding
// frames become findings of the job (recorded exactly like the sidecar's, with the agent's id), and its
// terminal frame ends the job. Findings of one dispatch are handled in arrival order.
import type { DiscoveryFindingPayload } from "../../shared/agents/payloads.ts";
import { emptyFinding, type HostFinding } from "../../shared/domain/discovery/finding.ts";
import type { Logger } from "../../shared/logger.ts";
import { agentJobOf, dispatchAgentJobs, failAgentJobs, markWaitingAgentJobs } from "../../shared/verbs/discovery/agents/dispatch.ts";
import { completeScanJob, failScanJob } from "../../shared/verbs/discovery/run/finish.ts";
import { reportScanProgress } from "../../shared/verbs/discovery/run/progress.ts";
import { recordFindings } from "../../shared/verbs/discovery/results/record-findings.ts";
import type { VerbContext } from "../../shared/verbs/verb-context.ts";
import type { DiscoveryHandlers } from "../agents/discovery-handlers.ts";

/** A host finding of an agent as the results take it. */
export function findingOf(p: DiscoveryFindingPayload): HostFinding | null {
  if (p.kind !== "host" || !p.ip_address) return null;
  const f = emptyFinding(p.ip_address);
  f.mac_address = p.mac_address?.toLowerCase() ?? null;
  f.hostname = p.hostname ?? null;
  f.open_ports = (p.open_ports ?? []).map((o) => ({ port: o.port, protocol: o.protocol, banner: o.banner ?? null }));
  f.sources = ["agent", ...(p.evidence ?? [])].slice(0, 16);
  return f;
}

const BATCH_MS = 200;
const BATCH_SIZE = 100;

export interface AgentDiscovery {
  start(): void;
  poll(): void;
  onControl(message: Record<string, unknown>): void;
  stop(): Promise<void>;
}

export function agentDiscovery(deps: { ctx: VerbContext; logger: Logger; links: DiscoveryHandlers; owner: string }): AgentDiscovery {
  const { ctx, logger, links } = deps;
  /** One chain per dispatch: a terminal frame is handled after the host frames before it. */
  const chains = new Map<string, Promise<void>>();
  let dispatching: Promise<void> | undefined;
  let pendingIds = new Set<number>();

  const dispatch = (agentIds: number[]): void => {
    for (const id of agentIds) pendingIds.add(id);
    if (dispatching) return;
    dispatching = (async () => {
      while (pendingIds.size > 0) {
        const ids = [...pendingIds].filter((id) => links.link(id));
        pendingIds = new Set();
        if (ids.length === 0) return;
        const requests = await dispatchAgentJobs({ ctx, input: { agent_ids: ids, owner: deps.owner } });
        for (const { agent_id, ...request } of requests) {
          const link = links.link(agent_id);
          // The link went away between the claim and the send: recover.ts ends the job if it never reports.
          if (link) link.send("discovery.request", { ...request });
          else logger.warn("discovery.request not sent: the agent's link closed", { agent_id, job_id: request.job_id });
        }
      }
    })()
      .catch((e: unknown) => logger.warn("agent discovery dispatch failed", { error: String(e) }))
      .finally(() => {
        dispatching = undefined;
      });
  };

  /** One dispatch's frames in arrival order: its hosts recorded in one call, then the last summary acted on. */
  const handle = async (agentId: number, dispatchId: string, frames: DiscoveryFindingPayload[]): Promise<void> => {
    const job = await agentJobOf({ ctx, input: { agent_id: agentId, dispatch_id: dispatchId } });
    if (job?.status !== "running") return; // cancelled, ended or unknown: what arrives after is dropped
    const findings = frames.map(findingOf).filter((f): f is HostFinding => f !== null);
    if (findings.length) await recordFindings({ ctx, input: { job_id: job.id, agent_id: agentId, findings } });
    const summaries = frames.filter((p) => p.kind === "summary");
    const last = summaries.find((p) => p.terminal) ?? summaries.at(-1);
    if (!last) return;
    const done = last.addresses_scanned ?? undefined;
    if (!last.terminal) {
      if (done !== undefined)
        await reportScanProgress({
          ctx,
          input: { job_id: job.id, phase: "scanning", message: last.msg ?? `${done} addresses scanned by the agent`, addresses_done: done },
        });
      return;
    }
    const outcome = last.outcome ?? "completed";
    if (outcome === "completed")
      await completeScanJob(ctx, logger, {
        job_id: job.id,
        ...(done !== undefined ? { addresses_done: done } : {}),
        message: last.msg ?? "Scan completed by the agent",
      });
    else if (outcome !== "cancelled")
      await failScanJob({
        ctx,
        input: { job_id: job.id, error_text: last.msg ?? `The agent ended the scan: ${outcome}`, error_reason: last.error_code ?? outcome },
      });
  };

  /** Frames wait BATCH_MS (or until BATCH_SIZE, or a terminal one) so a sweep's hosts cost few transactions. */
  const buffers = new Map<string, { agentId: number; frames: DiscoveryFindingPayload[]; timer: NodeJS.Timeout | undefined }>();
  const flush = (dispatchId: string): void => {
    const buffer = buffers.get(dispatchId);
    if (!buffer) return;
    buffers.delete(dispatchId);
    clearTimeout(buffer.timer);
    const next = (chains.get(dispatchId) ?? Promise.resolve())
      .then(() => handle(buffer.agentId, dispatchId, buffer.frames))
      .catch((e: unknown) =>
        logger.warn("agent discovery findings not recorded", {
          agent_id: buffer.agentId,
          dispatch_id: dispatchId,
          frames: buffer.frames.length,
          error: String(e),
        }),
      );
    chains.set(dispatchId, next);
    void next.finally(() => {
      if (chains.get(dispatchId) === next) chains.delete(dispatchId);
    });
  };

  const onFinding = (agentId: number, p: DiscoveryFindingPayload): void => {
    let buffer = buffers.get(p.dispatch_id);
    if (!buffer) buffers.set(p.dispatch_id, (buffer = { agentId, frames: [], timer: undefined }));
    buffer.frames.push(p);
    if (p.terminal || buffer.frames.length >= BATCH_SIZE) flush(p.dispatch_id);
    else buffer.timer ??= setTimeout(() => flush(p.dispatch_id), BATCH_MS);
  };

  return {
    start() {
      links.onFinding(onFinding);
      links.onLinked((agentId) => dispatch([agentId]));
      links.onUnlinked((agentId) => {
        // Frames already received are recorded first; then what was still running ends.
        for (const [id, b] of buffers) if (b.agentId === agentId) flush(id);
        const pending = [...chains.values()];
        void Promise.allSettled(pending)
          .then(() => failAgentJobs({ ctx, input: { agent_id: agentId, owner: deps.owner } }))
          .catch((e: unknown) => logger.warn("failing an unlinked agent's jobs failed", { agent_id: agentId, error: String(e) }));
      });
      dispatch(links.linkedIds());
    },
    poll() {
      dispatch(links.linkedIds());
      void markWaitingAgentJobs({ ctx }).catch((e: unknown) => logger.warn("marking waiting agent jobs failed", { error: String(e) }));
    },
    onControl(message) {
      const agentId = typeof message.scan_agent_id === "number" ? message.scan_agent_id : null;
      if (message.type === "job_cancel" && agentId !== null && typeof message.dispatch_id === "string")
        links
          .link(agentId)
          ?.send("discovery.cancel", { dispatch_id: message.dispatch_id, job_id: message.job_id, reason: "cancelled_by_user" });
      if (message.type === "job_queued" && agentId !== null) dispatch([agentId]);
      const resumed = typeof message.agent_id === "number" ? [message.agent_id] : links.linkedIds();
      if (message.type === "resume" || message.type === "resumed" || message.type === "agent_resumed") dispatch(resumed);
    },
    async stop() {
      for (const id of [...buffers.keys()]) flush(id);
      await dispatching;
      await Promise.allSettled([...chains.values()]);
    },
  };
}
