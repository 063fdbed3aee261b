// A short-lived, per-process memory of credentials that resolved successfully, so a client's requests
// do not each look their session or token up again. It only ever remembers successes, and forgets:
// - everything, when the database announces a credential change (trigger -> NOTIFY `credentials`,
//   migration 0007), and at once when a verb of this process commits a security-relevant change;
// - an entry after `ttlMs`, or when its session or token expires, whichever comes first;
// - everything, while the LISTEN behind it is not connected (then nothing is cached at all).
// A resolution that raced a change (read before it, stored after the flush) is not stored: see `set`.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { Actor } from "../verbs/actor.ts";

interface Entry {
  actor: Actor;
  /** Epoch ms after which the entry is not used. */
  until: number;
}

export class CredentialCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  #generation = 0;
  #live = false;

  constructor(opts: { ttlMs: number; maxEntries?: number }) {
    this.#ttlMs = opts.ttlMs;
    this.#maxEntries = opts.maxEntries ?? 10_000;
  }

  /** The key of a credential: its SHA-256, so the map never holds a usable secret. */
  keyOf(credential: string): string {
    return bytesToHex(sha256(utf8ToBytes(credential)));
  }

  /** Bumped by every flush; a resolution started under an older generation is not stored. */
  get generation(): number {
    return this.#generation;
  }

  get live(): boolean {
    return this.#live;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The remembered actor (a copy), if the entry is still good at `now`. */
  get(key: string, now: number): Actor | undefined {
    if (!this.#live) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return { ...entry.actor };
  }

  /**
   * Remembers a successful resolution that began at `generation`, valid until `expiresAt` (epoch ms)
   * at the latest. Dropped when a flush happened meanwhile: the row it read may already be stale.
   */
  set(key: string, actor: Actor, expiresAt: number, generation: number, now: number): void {
    if (!this.#live || generation !== this.#generation) return;
    const until = Math.min(now + this.#ttlMs, expiresAt);
    if (until <= now) return;
    // A bound, not an LRU: when full, start over (entries are cheap to rebuild).
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    this.#entries.set(key, { actor: { ...actor }, until });
  }

  flush(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /** The invalidation listener connected (true) or was lost (false); either way nothing old survives. */
  setLive(live: boolean): void {
    this.flush();
    this.#live = live;
  }
}
