// The public status pages' server-side cache (docs/adr/0459-status-page-cache-and-live-updates.md): the
// answer bytes of the HTML page and of its JSON twin, per slug and per custom domain, with their ETag
// and headers, so a hit costs neither a query nor a hash. One per process (in memory; every process
// hears the same NOTIFYs and forgets on its own). Forgets:
// - a page's answers when `status_pages` announces that page (an edit, an incident: `{page_id}`), and
//   every "no such page" answer then too (a page may just have been published);
// - the answers of the pages listing a monitor when `monitors` announces its state change, and every
//   answer when a monitor or a maintenance window is created, changed or deleted (a tag's members or a
//   window's cover may have moved);
// - each answer after `liveTtlMs` (the bars' minute and day grains, upstream lines, branding), or after
//   `unlistenedTtlMs` while the LISTEN behind it is down (or absent, on the edge): the 2 s target holds.
// Concurrent misses of one key build once (single flight); a build that raced an invalidation is
// answered to its waiters but not kept.

export interface PreparedAnswer {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
  /** Every header of the 200 (Content-Type, ETag, Cache-Control, the page's CSP...). */
  headers: Record<string, string>;
  /** The same answer gzipped once at build (a page of 50 items is ~300 kB, ~10x less gzipped), with its own ETag. */
  gzip?: { bytes: Uint8Array<ArrayBuffer>; etag: string; headers: Record<string, string> };
}

/** What the build read: the page, and the monitors its items resolved to (which state changes concern it). */
export interface PageSources {
  pageId: number;
  monitorIds: readonly number[];
}

/** A key's answer: null when no published page answers to it (the 404, kept too). */
export interface CachedPage {
  answer: PreparedAnswer | null;
  pageId: number | null;
}

export type Built = { answer: PreparedAnswer; sources: PageSources } | null;

/** Which pages may have changed: their ids, or every page. */
export type ChangedPages = ReadonlySet<number> | "all";

export const STATUS_PAGES_CHANNEL = "status_pages";
export const MONITORS_CHANNEL = "monitors";

interface Entry {
  value: CachedPage;
  until: number;
}

export interface PageCacheOptions {
  /**
   * Whether answers may go out gzipped as prepared (Node). workerd compresses responses itself and would
   * gzip our gzip again (a Response must say `encodeBody: "manual"` to pass it through, which hono's
   * c.body cannot), so the edge sends the plain bytes and lets the platform compress.
   */
  precompressed?: boolean;
  liveTtlMs?: number;
  unlistenedTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export class StatusPageCache {
  readonly #entries = new Map<string, Entry>();
  readonly #flights = new Map<string, Promise<CachedPage>>();
  /** Per page, the monitors of its last build: survives the entries, so events still find the page. */
  readonly #monitorsOf = new Map<number, ReadonlySet<number>>();
  readonly #listeners = new Set<(changed: ChangedPages) => void>();
  readonly #liveTtlMs: number;
  readonly #unlistenedTtlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  #generation = 0;
  #live = false;
  readonly precompressed: boolean;

  constructor(opts: PageCacheOptions = {}) {
    this.precompressed = opts.precompressed ?? true;
    this.#liveTtlMs = opts.liveTtlMs ?? 60_000;
    this.#unlistenedTtlMs = opts.unlistenedTtlMs ?? 1_000;
    this.#maxEntries = opts.maxEntries ?? 2_000;
    this.#now = opts.now ?? (() => Date.now());
  }

  get live(): boolean {
    return this.#live;
  }

  /** Bumped by every invalidation (tests wait on it, as the credential cache's). */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The longest an answer is kept now. */
  get ttlMs(): number {
    return this.#live ? this.#liveTtlMs : this.#unlistenedTtlMs;
  }

  /** The answer of `key`, built by `build` on a miss; one build at a time per key. */
  get(key: string, build: () => Promise<Built>): Promise<CachedPage> {
    const hit = this.#entries.get(key);
    if (hit && hit.until > this.#now()) return Promise.resolve(hit.value);
    const flying = this.#flights.get(key);
    if (flying) return flying;
    const generation = this.#generation;
    const flight = build()
      .then((built): CachedPage => {
        if (built) this.#remember(built.sources);
        const value = built ? { answer: built.answer, pageId: built.sources.pageId } : { answer: null, pageId: null };
        // Read before an invalidation that arrived meanwhile: good for those who asked, not to keep.
        if (generation === this.#generation) {
          if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
          this.#entries.set(key, { value, until: this.#now() + this.ttlMs });
        }
        return value;
      })
      .finally(() => {
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
      });
    this.#flights.set(key, flight);
    return flight;
  }

  /** Called with the pages that may have changed, after their answers were forgotten. */
  onChange(listener: (changed: ChangedPages) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A NOTIFY on `status_pages` or `monitors` (its payload as sent). */
  notify(channel: string, payload: string): void {
    // Most `monitors` traffic is check results (emitted as `{"type":"results",...}`): not parsed at all.
    if (payload.startsWith('{"type":"results"')) return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(payload) as Record<string, unknown>;
    } catch {
      return this.flush();
    }
    if (channel === STATUS_PAGES_CHANNEL) {
      const id = message.page_id;
      return typeof id === "number" ? this.pagesChanged(new Set([id])) : this.flush();
    }
    if (channel !== MONITORS_CHANNEL) return;
    if (message.type === "status" && typeof message.monitor_id === "number") return this.monitorChanged(message.monitor_id);
    // Monitors created, edited, paused or deleted and window edits can move items anywhere; results,
    // alerts and rules change nothing a page shows before the next state change or the TTL.
    if (message.type === "monitor" || message.type === "maintenance_window") this.flush();
  }

  /** The state of `monitorId` changed: the pages listing it. */
  monitorChanged(monitorId: number): void {
    const pages = new Set<number>();
    for (const [pageId, monitors] of this.#monitorsOf) if (monitors.has(monitorId)) pages.add(pageId);
    // Bumped even for no known page: a build in flight may be of a page listing it.
    this.#generation++;
    this.#flights.clear();
    if (pages.size > 0) this.#forget(pages);
  }

  pagesChanged(pageIds: ReadonlySet<number>): void {
    this.#generation++;
    this.#flights.clear();
    this.#forget(pageIds);
  }

  flush(): void {
    this.#generation++;
    this.#flights.clear();
    this.#entries.clear();
    this.#tell("all");
  }

  /** The invalidation LISTEN connected (true) or was lost (false); either way nothing old survives. */
  setLive(live: boolean): void {
    this.#live = live;
    // Events may have been missed while it was down: every live page is told to read again.
    this.flush();
  }

  #forget(pageIds: ReadonlySet<number>): void {
    for (const [key, entry] of this.#entries) {
      const id = entry.value.pageId;
      // A "no such page" answer goes with any page's change: that page may be the one it now finds.
      if (id === null || pageIds.has(id)) this.#entries.delete(key);
    }
    this.#tell(pageIds);
  }

  #remember(sources: PageSources): void {
    if (!this.#monitorsOf.has(sources.pageId) && this.#monitorsOf.size >= this.#maxEntries) this.#monitorsOf.clear();
    this.#monitorsOf.set(sources.pageId, new Set(sources.monitorIds));
  }

  #tell(changed: ChangedPages): void {
    for (const listener of this.#listeners) listener(changed);
  }
}
