// Frames the server has not yet acknowledged (protocol: `ping {ack_seq}` names the highest agent frame
// seq whose effects are committed). Every telemetry.host and probe.result payload stays here until a
// ping of the connection it was last sent on covers its seq; after a reconnect the rest are sent again
// with new seqs (the server de-duplicates by sample_id / run_id). Bounded by bytes: past the cap the
// oldest entries go, and the heartbeat reports how many.
export interface SpoolEntry {
  type: "telemetry.host" | "probe.result";
  payload: Record<string, unknown>;
  bytes: number;
  added: Date;
  /** Set while sent on a connection and not yet acknowledged there. */
  sent?: { connection: number; seq: number };
}

export type SpoolStats = {
  spool_depth: number;
  spool_bytes: number;
  spool_evicted_frames: number;
  spool_evicted_bytes: number;
  spool_oldest_ts: string | null;
  spool_newest_ts: string | null;
};

export class Spool {
  readonly #cap: number;
  #entries: SpoolEntry[] = [];
  #bytes = 0;
  #evictedFrames = 0;
  #evictedBytes = 0;

  constructor(capBytes: number) {
    this.#cap = capBytes;
  }

  get depth(): number {
    return this.#entries.length;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps a payload until acknowledged; evicts the oldest entries while over the cap. */
  add(type: SpoolEntry["type"], payload: Record<string, unknown>, now: Date = new Date()): SpoolEntry {
    const entry: SpoolEntry = { type, payload, bytes: new TextEncoder().encode(JSON.stringify(payload)).length, added: now };
    this.#entries.push(entry);
    this.#bytes += entry.bytes;
    while (this.#bytes > this.#cap && this.#entries.length > 0) {
      const old = this.#entries.shift()!;
      this.#bytes -= old.bytes;
      this.#evictedFrames++;
      this.#evictedBytes += old.bytes;
    }
    return entry;
  }

  /** Entries not sent on `connection` yet (a new connection: all of them), oldest first. */
  unsent(connection: number): SpoolEntry[] {
    return this.#entries.filter((e) => e.sent?.connection !== connection);
  }

  markSent(entry: SpoolEntry, connection: number, seq: number): void {
    entry.sent = { connection, seq };
  }

  /** `ping {ack_seq}` on `connection`: drops what it covers and answers those entries. */
  acknowledge(connection: number, ackSeq: number): SpoolEntry[] {
    const dropped: SpoolEntry[] = [];
    this.#entries = this.#entries.filter((e) => {
      const covered = e.sent !== undefined && e.sent.connection === connection && e.sent.seq <= ackSeq;
      if (covered) {
        this.#bytes -= e.bytes;
        dropped.push(e);
      }
      return !covered;
    });
    return dropped;
  }

  /** Gives up on one entry (a frame that can never be sent). */
  drop(entry: SpoolEntry): void {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((e) => e !== entry);
    if (this.#entries.length < before) this.#bytes -= entry.bytes;
  }

  /** What the heartbeat reports. */
  stats(): SpoolStats {
    const times = this.#entries.map((e) => e.added.getTime());
    return {
      spool_depth: this.#entries.length,
      spool_bytes: this.#bytes,
      spool_evicted_frames: this.#evictedFrames,
      spool_evicted_bytes: this.#evictedBytes,
      spool_oldest_ts: times.length ? new Date(Math.min(...times)).toISOString() : null,
      spool_newest_ts: times.length ? new Date(Math.max(...times)).toISOString() : null,
    };
  }
}
