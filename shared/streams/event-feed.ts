// What GET /events/stream reads from: the process that holds the live event fan-out (the sidecar's
// streams worker, sidecar/streams/sse-feed.ts) hands one of these to functions/routes/events.ts. Typed
// here so the route stays runtime-neutral and a process without the fan-out (the edge, a split
// functions instance) simply has none.
import type { EventsStatus } from "../schemas/events.ts";
import type { Actor } from "../verbs/actor.ts";
import type { EventChannel } from "../verbs/verb.ts";

export interface FeedEvent {
  /** `<epoch>-<seq>` (shared/streams/event-id.ts). */
  id: string;
  channel: EventChannel;
  /** The JSON text of the event: the very frame the channel's WebSocket stream sends. */
  data: string;
}

/** Told instead of a replay when the Last-Event-ID cannot be resumed from. */
export interface ResetNotice {
  reason: "out_of_buffer" | "unknown_id";
  last_event_id: string;
  oldest_id: string | null;
  newest_id: string | null;
}

/**
 * Why a stream ended from the server side: the client read too slowly, the process is draining, or
 * close() was called (the client left, or its credential no longer holds).
 */
export type EndReason = "slow_consumer" | "going_away" | "closed";

export interface EventSubscription {
  /** Events after the Last-Event-ID, already filtered to the subscription's channels. */
  readonly replay: readonly FeedEvent[];
  readonly reset: ResetNotice | undefined;
  /** Waits up to `waitMs`: the events queued since the last call, [] when none came, null once ended. */
  next(waitMs: number): Promise<readonly FeedEvent[] | null>;
  /** Resolves once the subscription ends, for whatever reason. */
  readonly ended: Promise<EndReason>;
  /** Ends it (idempotent): nothing more is queued and its connection slot is given back. */
  close(): void;
}

export interface OpenRequest {
  actor: Actor;
  channels: ReadonlySet<EventChannel>;
  /** The Last-Event-ID, already checked to be of our shape (parseEventId). */
  lastEventId: string | undefined;
}

export interface EventFeed {
  /** Throws ApiError: 503 SERVER_DRAINING when not accepting, 429 over the per-user connection cap. */
  open(request: OpenRequest): EventSubscription;
  status(): EventsStatus;
  /** Idle time after which the stream sends a heartbeat comment. */
  readonly heartbeatMs: number;
  /** How often an open stream's credential is resolved again (revocation and scope changes reach it). */
  readonly revalidateMs: number;
}
