// The source of GET /events/stream: it subscribes to the hub's channels like any UI socket, numbers each
// event (`<epoch>-<seq>`, shared/streams/event-id.ts), keeps the last `replayBufferSize` of them in a
// ring for Last-Event-ID resumption, and queues each event for the open streams that receive its
// channel. The event's JSON is the hub's frame, the string every WebSocket gets, so one event costs
// one string however many streams carry it.
import type { Random } from "../../shared/clock.ts";
import { ApiError } from "../../shared/errors.ts";
import type { EventsStatus } from "../../shared/schemas/events.ts";
import type { EventChannel } from "../../shared/verbs/verb.ts";
import type { StreamDef } from "../../shared/streams/catalogue.ts";
import type { EndReason, EventFeed, EventSubscription, FeedEvent, OpenRequest, ResetNotice } from "../../shared/streams/event-feed.ts";
import { formatEventId, parseEventId } from "../../shared/streams/event-id.ts";
import { userKey } from "./client.ts";
import type { ChannelHub } from "./hub.ts";
import type { SseOptions } from "./sse-options.ts";
import { SseSubscription } from "./sse-subscription.ts";

export interface SseFeedDeps {
  hub: ChannelHub;
  random: Random;
  streams: readonly StreamDef[];
  /** Open connections per user, shared with the WebSocket streams so one cap covers both. */
  users: Map<string, number>;
  maxConnectionsPerUser: number;
  revalidateMs: number;
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

export class SseFeed implements EventFeed {
  readonly heartbeatMs: number;
  readonly revalidateMs: number;
  readonly #deps: SseFeedDeps;
  readonly #options: SseOptions;
  readonly #epoch: string;
  /** Event seq s sits at (s - 1) % capacity; the ring holds seqs #seq - size + 1 .. #seq. */
  readonly #ring: FeedEvent[] = [];
  #seq = 0;
  readonly #clients = new Set<SseSubscription>();
  #unsubscribe: (() => void)[] = [];
  #accepting = false;
  #dropped = 0;

  constructor(deps: SseFeedDeps, options: SseOptions) {
    this.#deps = deps;
    this.#options = options;
    this.heartbeatMs = options.heartbeatMs;
    this.revalidateMs = deps.revalidateMs;
    this.#epoch = hex(deps.random.bytes(4));
  }

  start(): void {
    for (const { channel } of this.#deps.streams)
      this.#unsubscribe.push(this.#deps.hub.subscribe(channel, { deliver: (frame) => this.#publish(channel, frame) }));
    this.#accepting = true;
  }

  /** Ends every stream (their routes write a going_away close and finish the response). */
  stop(): void {
    this.#accepting = false;
    for (const u of this.#unsubscribe.splice(0)) u();
    for (const client of [...this.#clients]) client.end("going_away");
  }

  open({ actor, channels, lastEventId }: OpenRequest): EventSubscription {
    if (!this.#accepting)
      throw new ApiError("SERVER_DRAINING", "This process is not taking new event streams; reconnect shortly.", {}, { "Retry-After": "5" });
    const { users, maxConnectionsPerUser } = this.#deps;
    const key = userKey(actor);
    const open = users.get(key) ?? 0;
    if (open >= maxConnectionsPerUser)
      throw new ApiError(
        "RATE_LIMITED",
        `Too many open streams for this user (at most ${maxConnectionsPerUser}, WebSocket and event streams together); close one first.`,
        { retry_after: 5 },
        { "Retry-After": "5" },
      );
    users.set(key, open + 1);
    // Replay snapshot and live registration happen in one turn: no event falls between them or arrives twice.
    const { replay, reset } = this.#resume(lastEventId, channels);
    const client = new SseSubscription({
      channels,
      replay,
      reset,
      maxQueuedBytes: this.#options.maxQueuedBytes,
      onEnd: (reason) => this.#release(client, key, reason),
    });
    this.#clients.add(client);
    return client;
  }

  status(): EventsStatus {
    const size = this.#size();
    const count = (channel: EventChannel) => [...this.#clients].filter((c) => c.channels.has(channel)).length;
    return {
      accepting: this.#accepting,
      connected_clients: this.#clients.size,
      channels: this.#deps.streams.map(({ channel, scope }) => ({
        channel,
        scope,
        listening: this.#deps.hub.listening(channel),
        clients: count(channel),
      })),
      buffer: {
        capacity: this.#options.replayBufferSize,
        size,
        oldest_id: size === 0 ? null : formatEventId(this.#epoch, this.#seq - size + 1),
        newest_id: this.#newestId(),
      },
      events_total: this.#seq,
      dropped_clients: this.#dropped,
      heartbeat_interval_s: this.heartbeatMs / 1000,
      client_queue_bytes: this.#options.maxQueuedBytes,
      max_connections_per_user: this.#deps.maxConnectionsPerUser,
    };
  }

  #size(): number {
    return Math.min(this.#seq, this.#options.replayBufferSize);
  }

  #newestId(): string | null {
    return this.#seq === 0 ? null : formatEventId(this.#epoch, this.#seq);
  }

  /** What follows a Last-Event-ID: the events after it, or a reset when it is not ours or too old. */
  #resume(lastEventId: string | undefined, channels: ReadonlySet<EventChannel>): { replay: FeedEvent[]; reset?: ResetNotice } {
    if (lastEventId === undefined) return { replay: [] };
    const asked = parseEventId(lastEventId);
    const size = this.#size();
    const oldest = this.#seq - size + 1;
    const notice = (reason: ResetNotice["reason"]): ResetNotice => ({
      reason,
      last_event_id: lastEventId,
      oldest_id: size === 0 ? null : formatEventId(this.#epoch, oldest),
      newest_id: this.#newestId(),
    });
    if (!asked || asked.epoch !== this.#epoch || asked.seq > this.#seq) return { replay: [], reset: notice("unknown_id") };
    if (asked.seq < oldest - 1) return { replay: [], reset: notice("out_of_buffer") };
    const replay: FeedEvent[] = [];
    for (let seq = asked.seq + 1; seq <= this.#seq; seq++) {
      const event = this.#ring[(seq - 1) % this.#options.replayBufferSize]!;
      if (channels.has(event.channel)) replay.push(event);
    }
    return { replay };
  }

  #publish(channel: EventChannel, frame: string): void {
    const seq = ++this.#seq;
    const event: FeedEvent = { id: formatEventId(this.#epoch, seq), channel, data: frame };
    this.#ring[(seq - 1) % this.#options.replayBufferSize] = event;
    for (const client of this.#clients) client.push(event);
  }

  #release(client: SseSubscription, key: string, reason: EndReason): void {
    if (!this.#clients.delete(client)) return;
    if (reason === "slow_consumer") this.#dropped++;
    const left = (this.#deps.users.get(key) ?? 1) - 1;
    if (left > 0) this.#deps.users.set(key, left);
    else this.#deps.users.delete(key);
  }
}
