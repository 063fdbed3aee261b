// What every agent socket of one sidecar shares: one object, so a session holds a reference to it
// instead of closures of its own (the design target: < 64 KiB per link at 10,000 links).
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { VerbContext } from "../../shared/services/verb-context.ts";
import type { LinkBatcher } from "./batcher.ts";
import type { DiscoveryHandlers } from "./discovery-handlers.ts";
import type { AgentLinkOptions } from "./options.ts";
import type { ServerKeys } from "./server-keys.ts";
import type { AgentSession } from "./session.ts";

export interface LinkEnv {
  /** The system actor's verb context (work nobody asked for; sidecar/README.md). */
  ctx: VerbContext;
  clock: Clock;
  logger: Logger;
  options: AgentLinkOptions;
  keys: ServerKeys;
  batcher: LinkBatcher<AgentSession>;
  discovery: DiscoveryHandlers;
  /** Every open socket, for the shared tick and the drain. */
  sessions: Set<AgentSession>;
  /** Linked agents by id: the sockets agent_control notices may concern. */
  links: Map<number, AgentSession>;
  /** Pending enrollments held open by agent id, waiting for a decision. */
  holds: Map<number, AgentSession>;
  /** Sessions whose acknowledgement advanced since their last ping. */
  ackDirty: Set<AgentSession>;
}
