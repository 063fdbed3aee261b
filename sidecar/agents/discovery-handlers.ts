// Where discovery.finding frames go (issue 11, item 5: discovery dispatch is the discovery issue's).
// That issue registers its handler here; until then a finding is recorded NOWHERE: it is dropped with a
// debug log, and its frame is still acknowledged like any other.
import type { DiscoveryFindingPayload } from "../../shared/agents/payloads.ts";
import type { Logger } from "../../shared/logger.ts";

export type DiscoveryFindingHandler = (agentId: number, finding: DiscoveryFindingPayload) => void;

export class DiscoveryHandlers {
  #finding: DiscoveryFindingHandler | undefined;
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** The discovery worker's entry point for findings. */
  onFinding(handler: DiscoveryFindingHandler): void {
    this.#finding = handler;
  }

  finding(agentId: number, finding: DiscoveryFindingPayload): void {
    if (this.#finding) return this.#finding(agentId, finding);
    this.#logger.debug("discovery.finding dropped: no discovery handler yet", { agent_id: agentId, dispatch_id: finding.dispatch_id, kind: finding.kind });
  }
}
