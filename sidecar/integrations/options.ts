// The integrations worker's knobs, with the defaults a sidecar runs (tests shrink the poll).
export interface IntegrationsWorkerOptions {
  /** How often due integrations and provider configs are looked for. */
  pollMs: number;
  /** Syncs in flight at most: each holds outbound connections and one inventory transaction at its end. */
  concurrency: number;
}

export const DEFAULT_INTEGRATIONS_OPTIONS: IntegrationsWorkerOptions = { pollMs: 5_000, concurrency: 2 };
