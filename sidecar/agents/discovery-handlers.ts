// Where the agent links meet discovery (issue 13 item 4): the discovery worker registers its handler of
// discovery.finding frames and of new links (queued agent jobs are dispatched when their agent links),
// and reaches the links this sidecar holds to send discovery.request / discovery.cancel. Until a handler
// is registered a finding is dropped with a debug log; its frame is still acknowledged like any other.
import type { DiscoveryFindingPayload } from "../../shared/agents/payloads.ts";
import type { ServerFrameType } from "../../shared/agents/frames.ts";
import type { Logger } from "../../shared/logger.ts";

export type DiscoveryFindingHandler = (agentId: number, finding: DiscoveryFindingPayload) => void;

/** What discovery needs of a linked agent's socket (an AgentSession). */
export interface DiscoveryLink {
  readonly agentId: number;
  readonly phase: string;
  send(type: ServerFrameType, payload: Record<string, unknown>): void;
}

export class DiscoveryHandlers {
  #finding: DiscoveryFindingHandler | undefined;
  #linked: ((agentId: number) => void) | undefined;
  #unlinked: ((agentId: number) => void) | undefined;
  #links: ReadonlyMap<number, DiscoveryLink> = new Map();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** The agents worker hands over its map of linked sessions. */
  attach(links: ReadonlyMap<number, DiscoveryLink>): void {
    this.#links = links;
  }

  /** The discovery worker's entry point for findings. */
  onFinding(handler: DiscoveryFindingHandler): void {
    this.#finding = handler;
  }

  /** The discovery worker's entry point for a new link (its queued jobs go out). */
  onLinked(handler: (agentId: number) => void): void {
    this.#linked = handler;
  }

  /** The discovery worker's entry point for a link that ended (its scans on the agent stopped with it). */
  onUnlinked(handler: (agentId: number) => void): void {
    this.#unlinked = handler;
  }

  finding(agentId: number, finding: DiscoveryFindingPayload): void {
    if (this.#finding) return this.#finding(agentId, finding);
    this.#logger.debug("discovery.finding dropped: no discovery handler yet", {
      agent_id: agentId,
      dispatch_id: finding.dispatch_id,
      kind: finding.kind,
    });
  }

  linked(agentId: number): void {
    this.#linked?.(agentId);
  }

  unlinked(agentId: number): void {
    this.#unlinked?.(agentId);
  }

  /** The linked session of `agentId` on this sidecar, if any. */
  link(agentId: number): DiscoveryLink | undefined {
    const link = this.#links.get(agentId);
    return link && link.phase === "linked" ? link : undefined;
  }

  linkedIds(): number[] {
    return [...this.#links.entries()].filter(([, l]) => l.phase === "linked").map(([id]) => id);
  }
}
