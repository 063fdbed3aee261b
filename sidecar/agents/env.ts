// What every agent socket of one sidecar shares: one object, so a session holds a reference to it
// instead of closures of its own (the design target: < 64 KiB per link at 10,000 links). Generic in the session
// type, and handed the functions that take a session (link-frames.ts, outbound.ts) by the worker, so
// that session.ts imports neither this file's users nor they it in a circle.
import type { AgentFrameType, Frame } from "../../shared/agents/frames.ts";
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { VerbContext } from "../../shared/verbs/verb-context.ts";
import type { LinkBatcher } from "./batcher.ts";
import type { DiscoveryHandlers } from "./discovery-handlers.ts";
import type { AgentLinkOptions } from "./options.ts";
import type { ServerKeys } from "./server-keys.ts";

/** What a linked session's frames do (link-frames.ts) and the frames the server starts (outbound.ts). */
export interface LinkFrames<Session> {
  handle(session: Session, frame: Frame<AgentFrameType>): void;
  sendUpdate(session: Session, update: Record<string, unknown>): void;
  dispatchProbes(session: Session): Promise<void>;
}

export interface LinkEnv<Session> {
  /** The system actor's verb context (work nobody asked for; sidecar/README.md). */
  ctx: VerbContext;
  clock: Clock;
  logger: Logger;
  options: AgentLinkOptions;
  keys: ServerKeys;
  batcher: LinkBatcher<Session>;
  discovery: DiscoveryHandlers;
  frames: LinkFrames<Session>;
  /** Every open socket, for the shared tick and the drain. */
  sessions: Set<Session>;
  /** Linked agents by id: the sockets agent_control notices may concern. */
  links: Map<number, Session>;
  /** Pending enrollments held open by agent id, waiting for a decision. */
  holds: Map<number, Session>;
  /** Sessions whose acknowledgement advanced since their last ping. */
  ackDirty: Set<Session>;
}
