// The monitors worker's knobs, with the defaults a sidecar runs (tests shrink the timers).
import type { Resolve } from "../../net/outbound-http.ts";

export interface MonitorsWorkerOptions {
  /** Checks in flight at most; more due checks wait for the next claim. */
  concurrency: number;
  /** How often the scheduler looks for due checks (and right away on a monitor_control notice). */
  pollMs: number;
  /** Monitors claimed per statement. */
  claimBatch: number;
  /** Results are recorded in one transaction every flushMs, or sooner once flushSize are waiting. */
  flushMs: number;
  flushSize: number;
  /** Results kept while the database is unreachable, then the oldest are dropped (and logged). */
  maxBuffered: number;
  /** Names this sidecar in `monitors.claimed_by`. */
  owner: string;
  /** The ping executable (tests: a missing one). */
  pingCommand: string;
  /** Replaces the system resolver for checks' connections (tests: a name resolving to a refused address). */
  resolve?: Resolve;
  /** Lags (check start minus due time) kept for stats(). */
  lagWindow: number;
  /** How long stop() lets checks in flight finish before aborting them. */
  drainMs: number;
  /** How often agent-probed monitors whose run expired are marked stale. */
  staleProbeMs: number;
  /** How often push monitors past their deadline are marked down, and how many per statement. */
  pushSweepMs: number;
  pushSweepBatch: number;
}

export function defaultMonitorsOptions(owner: string): MonitorsWorkerOptions {
  return {
    concurrency: 256,
    pollMs: 250,
    claimBatch: 200,
    flushMs: 100,
    flushSize: 200,
    maxBuffered: 50_000,
    owner,
    pingCommand: "ping",
    lagWindow: 20_000,
    drainMs: 15_000,
    staleProbeMs: 10_000,
    pushSweepMs: 5_000,
    pushSweepBatch: 500,
  };
}
