// Agents' discovery on this sidecar (issue 13 item 4): the queued jobs of the agents whose links this
// process holds go out as `discovery.request` (when the agent links, on a job_queued notice, and on
// every poll as the safety net); a cancel goes out as `discovery.cancel`; the agent's discovery.finding
// frames become findings of the job (recorded exactly like the sidecar's, with the agent's id), and its
// terminal frame ends the job. Findings of one dispatch are handled in arrival order.
import type { DiscoveryFindingPayload } from "../../shared/agents/payloads.ts";
import { emptyFinding, type HostFinding } from "../../shared/domain/discovery/finding.ts";
import type { Logger } from "../../shared/logger.ts";
import { agentJobOf, dispatchAgentJobs, markWaitingAgentJobs } from "../../shared/services/discovery/agents/dispatch.ts";
import { failScanJob, finishScanJob } from "../../shared/services/discovery/run/finish.ts";
import { reportScanProgress } from "../../shared/services/discovery/run/progress.ts";
import { recordFindings } from "../../shared/services/discovery/results/record-findings.ts";
import type { VerbContext } from "../../shared/services/verb-context.ts";
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

  const handle = async (agentId: number, p: DiscoveryFindingPayload): Promise<void> => {
    const job = await agentJobOf({ ctx, input: { agent_id: agentId, dispatch_id: p.dispatch_id } });
    if (!job || job.status !== "running") return; // cancelled, ended or unknown: what arrives after is dropped
    const finding = findingOf(p);
    if (finding) await recordFindings({ ctx, input: { job_id: job.id, agent_id: agentId, findings: [finding] } });
    const done = p.addresses_scanned ?? undefined;
    if (!p.terminal) {
      if (p.kind === "summary" && done !== undefined)
        await reportScanProgress({ ctx, input: { job_id: job.id, phase: "scanning", message: p.msg ?? `${done} addresses scanned by the agent`, addresses_done: done } });
      return;
    }
    const outcome = p.outcome ?? "completed";
    if (outcome === "completed") await finishScanJob({ ctx, input: { job_id: job.id, ...(done !== undefined ? { addresses_done: done } : {}), message: p.msg ?? "Scan completed by the agent" } });
    else if (outcome !== "cancelled")
      await failScanJob({ ctx, input: { job_id: job.id, error_text: p.msg ?? `The agent ended the scan: ${outcome}`, error_reason: p.error_code ?? outcome } });
  };

  const onFinding = (agentId: number, p: DiscoveryFindingPayload): void => {
    const key = p.dispatch_id;
    const next = (chains.get(key) ?? Promise.resolve())
      .then(() => handle(agentId, p))
      .catch((e: unknown) => logger.warn("agent discovery finding not recorded", { agent_id: agentId, dispatch_id: key, error: String(e) }));
    chains.set(key, next);
    void next.finally(() => {
      if (chains.get(key) === next) chains.delete(key);
    });
  };

  return {
    start() {
      links.onFinding(onFinding);
      links.onLinked((agentId) => dispatch([agentId]));
      dispatch(links.linkedIds());
    },
    poll() {
      dispatch(links.linkedIds());
      void markWaitingAgentJobs({ ctx }).catch((e: unknown) => logger.warn("marking waiting agent jobs failed", { error: String(e) }));
    },
    onControl(message) {
      const agentId = typeof message.scan_agent_id === "number" ? message.scan_agent_id : null;
      if (message.type === "job_cancel" && agentId !== null && typeof message.dispatch_id === "string")
        links.link(agentId)?.send("discovery.cancel", { dispatch_id: message.dispatch_id, job_id: message.job_id, reason: "cancelled_by_user" });
      if (message.type === "job_queued" && agentId !== null) dispatch([agentId]);
      const resumed = typeof message.agent_id === "number" ? [message.agent_id] : links.linkedIds();
      if (message.type === "resume" || message.type === "resumed" || message.type === "agent_resumed") dispatch(resumed);
    },
    async stop() {
      await dispatching;
      await Promise.allSettled([...chains.values()]);
    },
  };
}
