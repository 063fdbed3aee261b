// One check result as the recording path takes it (record-results.ts), in a file of its own so the
// recording path's parts (vantage-results.ts) can name it without importing the recorder.
import type { GroupJudgement } from "../../../domain/monitors/group.ts";
import type { CheckSample } from "../../../domain/monitors/state.ts";

export interface MonitorResult {
  monitor_id: number;
  /** ISO instant the check finished (samples and the minute bucket are stamped with it). */
  checked_at: string;
  up: boolean;
  latency_ms: number | null;
  samples: CheckSample[];
  msg: string;
  /** Who produced it: the sidecar's executor, an agent's probe, or a push to a heartbeat monitor. */
  source: "server" | "agent" | "push";
  /** A failure that goes down at once rather than through max_retries (a push that says it failed). */
  immediate?: boolean;
  /** The agent that ran it (source agent): a multi-vantage monitor's vantage point (docs/adr/0441). */
  agent_id?: number | null;
  /** A group monitor's evaluation (groups/results.ts): its verdict, applied without retries, and its depth. */
  group?: (GroupJudgement & { depth: number }) | undefined;
  /**
   * A push's effect on its monitor's row (../push/record-pushes.ts): its next deadline and its per-minute
   * count, written by the same update as the result (one row version per push, not two).
   */
  push?: { deadline: string; window_start: string; window_hits: number };
}
