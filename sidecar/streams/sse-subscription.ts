// One client of GET /events/stream as the feed sees it: the channels it receives and the events queued
// for it until its route writes them. The queue is bounded in bytes: a client that does not read ends
// "slow_consumer" (its route then cuts the response) rather than holding events without end.
import type { EventChannel } from "../../shared/verbs/verb.ts";
import type { EndReason, EventSubscription, FeedEvent, ResetNotice } from "../../shared/streams/event-feed.ts";

type Waiter = (events: readonly FeedEvent[] | null) => void;

export class SseSubscription implements EventSubscription {
  readonly channels: ReadonlySet<EventChannel>;
  readonly replay: readonly FeedEvent[];
  readonly reset: ResetNotice | undefined;
  readonly ended: Promise<EndReason>;
  readonly #maxQueuedBytes: number;
  readonly #onEnd: (reason: EndReason) => void;
  #queue: FeedEvent[] = [];
  #queuedBytes = 0;
  #waiter: { resolve: Waiter; timer: NodeJS.Timeout } | undefined;
  #endReason: EndReason | undefined;
  #resolveEnded!: (reason: EndReason) => void;

  constructor(init: {
    channels: ReadonlySet<EventChannel>;
    replay: readonly FeedEvent[];
    reset: ResetNotice | undefined;
    maxQueuedBytes: number;
    onEnd: (reason: EndReason) => void;
  }) {
    this.channels = init.channels;
    this.replay = init.replay;
    this.reset = init.reset;
    this.#maxQueuedBytes = init.maxQueuedBytes;
    this.#onEnd = init.onEnd;
    this.ended = new Promise((resolve) => (this.#resolveEnded = resolve));
  }

  push(event: FeedEvent): void {
    if (this.#endReason || !this.channels.has(event.channel)) return;
    if (this.#waiter) return this.#wake([event]);
    this.#queue.push(event);
    this.#queuedBytes += event.data.length;
    if (this.#queuedBytes > this.#maxQueuedBytes) this.end("slow_consumer");
  }

  next(waitMs: number): Promise<readonly FeedEvent[] | null> {
    if (this.#endReason) return Promise.resolve(null);
    if (this.#waiter) return Promise.reject(new Error("next() is already waiting"));
    if (this.#queue.length > 0) {
      const events = this.#queue;
      this.#queue = [];
      this.#queuedBytes = 0;
      return Promise.resolve(events);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#wake([]), waitMs);
      this.#waiter = { resolve, timer };
    });
  }

  end(reason: EndReason): void {
    if (this.#endReason) return;
    this.#endReason = reason;
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#wake(null);
    this.#resolveEnded(reason);
    this.#onEnd(reason);
  }

  close(): void {
    this.end("closed");
  }

  #wake(events: readonly FeedEvent[] | null): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = undefined;
    clearTimeout(waiter.timer);
    waiter.resolve(events);
  }
}
