// The write-behind batcher of the links: frames' effects gather here and go to the database in one
// applyLinkBatch call every flushMs, or at once when maxBatchFrames wait. One commit is in flight at a
// time, so batches commit in the order the frames arrived, and a session's acknowledgement can advance
// to the last seq it had in a committed batch (every frame of a link passes here, even one that writes
// nothing, for exactly that reason). When a commit fails nothing of it is acknowledged: the sessions
// that had frames in it are handed to onLost (closed 1011; their agents re-send on reconnect).
import type { Logger } from "../../shared/logger.ts";
import {
  emptyLinkBatch,
  type EventRow,
  type LinkBatch,
  type LinkBatchOutcome,
  type LinkEndRow,
  type ReadinessRow,
  type ResultRow,
  type SampleRow,
  type SeenRow,
} from "../../shared/verbs/agents/link/link-batch.ts";

export interface BatcherHooks<S> {
  commit(batch: LinkBatch): Promise<LinkBatchOutcome>;
  /** Each session with the highest seq of its frames that this commit made durable. */
  committed(marks: Map<S, number>): void;
  lost(sessions: Set<S>, error: unknown): void;
  logger: Logger;
}

/** Frame-to-commit latencies kept for stats() (the newest LATENCY_RING). */
const LATENCY_RING = 4096;

export class LinkBatcher<S> {
  readonly #hooks: BatcherHooks<S>;
  readonly #flushMs: number;
  readonly #maxFrames: number;
  readonly #maxQueued: number;
  #batch = emptyLinkBatch();
  /** Per agent, the newest heartbeat/frame heard (one row per agent in the UPDATE). */
  #seen = new Map<number, SeenRow>();
  #readiness = new Map<number, ReadinessRow>();
  #marks = new Map<S, number>();
  #enqueuedAt: number[] = [];
  #frames = 0;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> | undefined;
  readonly #latencies = new Float64Array(LATENCY_RING);
  #latencyCount = 0;
  committedFrames = 0;
  failedBatches = 0;

  constructor(hooks: BatcherHooks<S>, opts: { flushMs: number; maxBatchFrames: number; maxQueuedFrames: number }) {
    this.#hooks = hooks;
    this.#flushMs = opts.flushMs;
    this.#maxFrames = opts.maxBatchFrames;
    this.#maxQueued = opts.maxQueuedFrames;
  }

  /** False when the queue is full: the caller refuses the frame (and closes its link 1013). */
  get hasRoom(): boolean {
    return this.#frames < this.#maxQueued;
  }

  get queued(): number {
    return this.#frames;
  }

  /** A frame of `session` with seq `seq` whose effects (if any) were just added. */
  mark(session: S, seq: number, now: number): void {
    this.#marks.set(session, seq);
    this.#enqueuedAt.push(now);
    this.#frames++;
    this.#schedule();
  }

  seen(agentId: number, at: Date, spool?: { spool_depth?: number | undefined; spool_bytes?: number | undefined }): void {
    const prev = this.#seen.get(agentId);
    const row: SeenRow = {
      agent_id: agentId,
      at: at.toISOString(),
      spool_depth: spool?.spool_depth ?? prev?.spool_depth,
      spool_bytes: spool?.spool_bytes ?? prev?.spool_bytes,
    };
    this.#seen.set(agentId, row);
  }

  sample(row: SampleRow): void {
    this.#batch.samples.push(row);
  }

  result(row: ResultRow): void {
    this.#batch.results.push(row);
  }

  readiness(row: ReadinessRow): void {
    this.#readiness.set(row.agent_id, row);
  }

  event(row: EventRow): void {
    this.#batch.events.push(row);
  }

  updateDone(agentId: number, version: string): void {
    this.#batch.updates_done.push({ agent_id: agentId, version });
  }

  /** The server sent an agent its queued update: not a frame, committed like an ended link. */
  updateSent(agentId: number, version: string): void {
    this.#batch.updates_sent.push({ agent_id: agentId, version });
    this.#notFromFrame();
  }

  /** The server refused to send an update (outbound.ts): its update_failed event, and the update withdrawn. */
  updateRefused(row: EventRow, version: string): void {
    this.#batch.events.push(row);
    this.#batch.updates_done.push({ agent_id: row.agent_id, version });
    this.#notFromFrame();
  }

  #notFromFrame(): void {
    this.#frames++;
    this.#schedule();
  }

  /** A link ended (not a frame: nothing to acknowledge). */
  ended(row: LinkEndRow): void {
    this.#batch.ended.push(row);
    this.#notFromFrame();
  }

  /** Commits everything waiting now (the drain), and what arrives while it commits. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (let round = 0; round < 1000 && (this.#inFlight || this.#frames > 0); round++) {
      if (this.#inFlight) await this.#inFlight;
      else this.#startCommit();
    }
  }

  /** p50/p99/max of the recent frame-to-commit latencies, in ms. */
  stats(): { p50: number; p99: number; max: number; samples: number; committed_frames: number; failed_batches: number; queued: number } {
    const n = Math.min(this.#latencyCount, LATENCY_RING);
    const sorted = Array.from(this.#latencies.subarray(0, n)).sort((a, b) => a - b);
    const at = (q: number) => (n === 0 ? 0 : sorted[Math.min(n - 1, Math.floor(q * n))]!);
    return {
      p50: at(0.5),
      p99: at(0.99),
      max: n ? sorted[n - 1]! : 0,
      samples: n,
      committed_frames: this.committedFrames,
      failed_batches: this.failedBatches,
      queued: this.#frames,
    };
  }

  #schedule(): void {
    if (this.#inFlight) return; // the running commit starts the next one when it ends
    if (this.#frames >= this.#maxFrames) return this.#startCommit();
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#startCommit();
    }, this.#flushMs);
  }

  #startCommit(): void {
    if (this.#inFlight || this.#frames === 0) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#batch;
    batch.seen = [...this.#seen.values()];
    batch.readiness = [...this.#readiness.values()];
    const marks = this.#marks;
    const enqueuedAt = this.#enqueuedAt;
    const frames = this.#frames;
    this.#batch = emptyLinkBatch();
    this.#seen = new Map();
    this.#readiness = new Map();
    this.#marks = new Map();
    this.#enqueuedAt = [];
    this.#frames = 0;
    this.#inFlight = this.#hooks
      .commit(batch)
      .then(
        () => {
          const done = performance.now();
          for (const t of enqueuedAt) this.#latencies[this.#latencyCount++ % LATENCY_RING] = done - t;
          this.committedFrames += frames;
          this.#hooks.committed(marks);
        },
        (e: unknown) => {
          this.failedBatches++;
          this.#hooks.logger.error("agent link batch failed; its links are closed to re-send", { frames, error: String(e) });
          this.#hooks.lost(new Set(marks.keys()), e);
        },
      )
      .catch((e: unknown) => this.#hooks.logger.error("agent link batch hook failed", { error: String(e) }))
      .finally(() => {
        this.#inFlight = undefined;
        if (this.#frames > 0) this.#schedule();
      });
  }
}
