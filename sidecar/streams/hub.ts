// The fan-out: one LISTEN per channel for the whole process (not one per socket), each NOTIFY payload
// turned into one event frame, serialised once and handed to every subscriber of that channel.
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { EventChannel } from "../../shared/verbs/verb.ts";
import type { Listen } from "../../runtime/listen.ts";

export interface Subscriber {
  deliver(frame: string): void;
}

export interface HubDeps {
  /** Absent when the database cannot LISTEN: the streams then stay silent and say listening: false. */
  listen: Listen | undefined;
  clock: Clock;
  logger: Logger;
  retryMs: number;
}

/** The payload as JSON where it is JSON (every verb emits JSON), else the text itself. */
function payloadData(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

export class ChannelHub {
  readonly #deps: HubDeps;
  readonly #subscribers = new Map<EventChannel, Set<Subscriber>>();
  readonly #unlisten = new Map<EventChannel, () => Promise<void>>();
  readonly #attempts = new Set<Promise<void>>();
  readonly #retries = new Set<NodeJS.Timeout>();
  #stopped = false;

  constructor(deps: HubDeps) {
    this.#deps = deps;
  }

  start(channels: readonly EventChannel[]): void {
    for (const channel of channels) this.#listenOn(channel);
  }

  listening(channel: EventChannel): boolean {
    return this.#unlisten.has(channel);
  }

  subscribe(channel: EventChannel, subscriber: Subscriber): () => void {
    let set = this.#subscribers.get(channel);
    if (!set) this.#subscribers.set(channel, (set = new Set()));
    set.add(subscriber);
    return () => void set.delete(subscriber);
  }

  /** Stops every LISTEN (and any retry); nothing is delivered afterwards. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const t of this.#retries) clearTimeout(t);
    this.#retries.clear();
    await Promise.all(this.#attempts);
    const unlistens = [...this.#unlisten.values()];
    this.#unlisten.clear();
    this.#subscribers.clear();
    await Promise.all(unlistens.map((u) => u().catch((e: unknown) => this.#deps.logger.warn("unlisten failed", { error: String(e) }))));
  }

  #listenOn(channel: EventChannel): void {
    const { listen, logger, retryMs } = this.#deps;
    if (!listen || this.#stopped) return;
    const attempt = listen(channel, (payload) => this.#publish(channel, payload)).then(
      async (unlisten) => {
        if (this.#stopped) await unlisten();
        else this.#unlisten.set(channel, unlisten);
      },
      (e: unknown) => {
        // postgres.js re-listens by itself once connected; only the first LISTEN needs retrying here.
        logger.warn("stream LISTEN failed; retrying", { channel, error: String(e) });
        if (this.#stopped) return;
        const retry = setTimeout(() => {
          this.#retries.delete(retry);
          this.#listenOn(channel);
        }, retryMs);
        retry.unref();
        this.#retries.add(retry);
      },
    );
    this.#attempts.add(attempt);
    void attempt.finally(() => this.#attempts.delete(attempt));
  }

  #publish(channel: EventChannel, payload: string): void {
    const subscribers = this.#subscribers.get(channel);
    if (!subscribers?.size) return;
    const frame = JSON.stringify({ type: "event", channel, data: payloadData(payload), ts: this.#deps.clock.now().toISOString() });
    for (const s of subscribers) s.deliver(frame);
  }
}
