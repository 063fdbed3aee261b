// The discovery worker's knobs, with the defaults a sidecar runs (tests shrink the timers).
export interface DiscoveryWorkerOptions {
  /** Server jobs running at once on this sidecar; more queued jobs wait. */
  concurrency: number;
  /** How often queued jobs are looked for (and right away on a discovery_control notice). */
  pollMs: number;
  /** Names this sidecar in scan_jobs.claimed_by. */
  owner: string;
  /** Progress is written at most this often (the last report of a burst wins). */
  progressMs: number;
  /** A running job's row is touched at least this often, even when its progress did not change. */
  heartbeatMs: number;
  /** Findings are recorded every findingsMs or once findingsBatch are waiting. */
  findingsMs: number;
  findingsBatch: number;
  /** Log entries are written every logsMs or once logsBatch are waiting. */
  logsMs: number;
  logsBatch: number;
  /** How often running jobs nobody touched for staleMs are failed "interrupted". */
  recoverMs: number;
  staleMs: number;
  /** How often the readiness of the scan tools is probed and stored (app_settings discovery_readiness). */
  readinessMs: number;
  /** Sockets the engine may hold open at once, all jobs of this sidecar together. */
  maxSockets: number;
  /** The engine's defaults when a job's options do not say. */
  hostTimeoutMs: number;
  maxConcurrentHosts: number;
}

export function defaultDiscoveryOptions(owner: string, concurrency = 2): DiscoveryWorkerOptions {
  return {
    concurrency,
    pollMs: 3_000,
    owner,
    progressMs: 1_000,
    heartbeatMs: 30_000,
    findingsMs: 200,
    findingsBatch: 100,
    logsMs: 500,
    logsBatch: 200,
    recoverMs: 60_000,
    staleMs: 5 * 60_000,
    readinessMs: 10 * 60_000,
    maxSockets: 512,
    hostTimeoutMs: 1_500,
    maxConcurrentHosts: 128,
  };
}
