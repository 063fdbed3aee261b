// The live updates of the public status pages (docs/adr/0459-status-page-cache-and-live-updates.md):
// who listens to which page, told whenever the page cache forgets that page (the same NOTIFYs). A
// bounded number of streams per process (beyond it 503 with Retry-After); all of them end when the
// process starts draining, so the drain does not wait on streams that never finish by themselves.
import { ApiError } from "../errors.ts";
import type { ChangedPages, StatusPageCache } from "./page-cache.ts";

export type Wake = "change" | "heartbeat" | "closed";

export interface PageSubscription {
  /** Waits up to `waitMs` for a change of the page: "heartbeat" when none came, "closed" once ended. */
  next(waitMs: number): Promise<Wake>;
  /** Ends it (idempotent) and gives its slot back. */
  close(): void;
}

class Subscriber implements PageSubscription {
  pending = false;
  closed = false;
  #wake: ((w: Wake) => void) | undefined;
  readonly #leave: () => void;

  constructor(leave: () => void) {
    this.#leave = leave;
  }

  next(waitMs: number): Promise<Wake> {
    if (this.closed) return Promise.resolve("closed");
    if (this.pending) {
      this.pending = false;
      return Promise.resolve("change");
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve("heartbeat");
      }, waitMs);
      this.#wake = (w) => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve(w);
      };
    });
  }

  changed(): void {
    if (this.#wake) this.#wake("change");
    else this.pending = true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#leave();
    this.#wake?.("closed");
  }
}

export interface PageEventsOptions {
  maxConnections?: number;
  heartbeatMs?: number;
}

export class PageEventHub {
  readonly #pages = new Map<number, Set<Subscriber>>();
  readonly maxConnections: number;
  readonly heartbeatMs: number;
  #count = 0;
  #closed = false;

  constructor(cache: StatusPageCache, opts: PageEventsOptions = {}) {
    this.maxConnections = opts.maxConnections ?? 1_000;
    this.heartbeatMs = opts.heartbeatMs ?? 25_000;
    cache.onChange((changed) => this.#changed(changed));
  }

  get connections(): number {
    return this.#count;
  }

  /** Throws ApiError 503: SERVER_DRAINING once closed, SERVICE_NOT_READY (Retry-After) when full. */
  open(pageId: number): PageSubscription {
    if (this.#closed) throw new ApiError("SERVER_DRAINING", "This instance is shutting down; reconnect to another.");
    if (this.#count >= this.maxConnections)
      throw new ApiError(
        "SERVICE_NOT_READY",
        `This instance already serves ${this.maxConnections} live status page streams; the page still works without them (reload it to update).`,
        undefined,
        { "Retry-After": "60" },
      );
    const set = this.#pages.get(pageId) ?? new Set<Subscriber>();
    this.#pages.set(pageId, set);
    this.#count++;
    const sub: Subscriber = new Subscriber(() => {
      this.#count--;
      set.delete(sub);
      if (set.size === 0 && this.#pages.get(pageId) === set) this.#pages.delete(pageId);
    });
    set.add(sub);
    return sub;
  }

  /** Ends every stream and refuses new ones (the drain). */
  closeAll(): void {
    this.#closed = true;
    for (const set of [...this.#pages.values()]) for (const sub of [...set]) sub.close();
  }

  #changed(changed: ChangedPages): void {
    if (changed === "all") {
      for (const set of this.#pages.values()) for (const sub of set) sub.changed();
      return;
    }
    for (const id of changed) for (const sub of this.#pages.get(id) ?? []) sub.changed();
  }
}
