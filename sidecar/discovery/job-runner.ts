// What a runner of one scan job gets (contracts D): the job row, the signal that stops it (cancel or the
// drain), the vault to open the job's secrets, the buffered outlets for its log, progress and findings,
// and the system context for verbs of its own. A runner returns when its work is done or the signal
// aborted; the worker then ends the job.
import type { HostFinding } from "../../shared/domain/discovery/finding.ts";
import type { ScanLogLevel } from "../../shared/verbs/discovery/run/append-logs.ts";
import type { ScanJobRow } from "../../shared/verbs/discovery/run/job-events.ts";
import type { VerbContext } from "../../shared/verbs/verb-context.ts";
import type { Vault } from "../../shared/vault/vault.ts";

export type { ScanJobRow };

export interface JobProgress {
  done: number;
  total: number;
  phase: string;
  message: string;
}

export interface JobRun {
  job: ScanJobRow;
  signal: AbortSignal;
  vault: Vault;
  /** The worker's system context, for runners that call verbs of their own (docker sync, LLDP neighbours). */
  ctx: VerbContext;
  log(level: ScanLogLevel, phase: string, message: string, details?: Record<string, unknown>): void;
  progress(p: JobProgress): void;
  /** Records findings now (the runner batches them); dropped once the signal aborted. */
  recordHosts(findings: HostFinding[]): Promise<void>;
}

export type JobRunner = (run: JobRun) => Promise<void>;
