// Multi-vantage checks (docs/adr/0441): a monitor checked from the sidecar and from chosen agents at once
// is down only when at least Q of its vantage points agree within one interval. Pure, so the recording
// path and the tests share one rule.
//
// - Only each point's last result counts, and only when it is fresh: checked within the window (the
//   interval plus the check's budget and the probe deadline's slack) before the result being judged.
// - down when at least Q fresh points report down; degraded when some, but fewer than Q, do (one
//   agent's bad uplink); up when none does and at least Q fresh points answered; otherwise (none down,
//   fewer than Q fresh answers) there is no verdict yet and the status stays as it is.
// - The quorum is the confirmation: a down verdict goes straight to down (max_retries is not applied on
//   top of it, since every point's result would count as a retry).
import { type Decision, decide, type MonitorState, statusEvent } from "./state.ts";

export const SIDECAR_VANTAGE = "sidecar";
/** Seconds an agent's probe may run past its budget (the deadline the runner gives it). */
export const PROBE_DEADLINE_SLACK_S = 5;

export interface VantageConfig {
  vantage_agent_ids: readonly number[];
  vantage_sidecar: boolean;
  quorum: number | null;
}

export interface VantagePointResult {
  vantage: string;
  up: boolean;
  checked_at: Date;
}

export type Verdict = "up" | "degraded" | "down" | "none";

export interface Judgement {
  verdict: Verdict;
  /** Fresh points reporting down, fresh points in all, all points, the quorum applied. */
  down: number;
  fresh: number;
  points: number;
  quorum: number;
}

/** Whether the monitor is judged by a quorum: it names vantage agents. */
export const isQuorumMonitor = (m: Pick<VantageConfig, "vantage_agent_ids">) => m.vantage_agent_ids.length > 0;

/** The vantage points' keys: 'sidecar' (when it takes part) and each agent's id as text. */
export function vantagePoints(m: VantageConfig): string[] {
  return [...(m.vantage_sidecar ? [SIDECAR_VANTAGE] : []), ...m.vantage_agent_ids.map(String)];
}

/** Q when none was given: a majority of the points. */
export const majority = (points: number) => Math.floor(points / 2) + 1;

export const effectiveQuorum = (m: VantageConfig) => m.quorum ?? majority(vantagePoints(m).length);

/** The window (ms) a point's result stays fresh: one interval plus the check's budget and the deadline slack. */
export const freshnessMs = (intervalSecs: number, budgetMs: number) => intervalSecs * 1000 + budgetMs + PROBE_DEADLINE_SLACK_S * 1000;

export function judge(m: VantageConfig, last: ReadonlyMap<string, VantagePointResult>, at: Date, windowMs: number): Judgement {
  const points = vantagePoints(m);
  const quorum = effectiveQuorum(m);
  const fresh = points
    .map((p) => last.get(p))
    .filter((r): r is VantagePointResult => r !== undefined && at.getTime() - r.checked_at.getTime() <= windowMs);
  const down = fresh.filter((r) => !r.up).length;
  const verdict: Verdict = down >= quorum ? "down" : down > 0 ? "degraded" : fresh.length >= quorum ? "up" : "none";
  return { verdict, down, fresh: fresh.length, points: points.length, quorum };
}

/** What a judgement does to the monitor: the state machine of state.ts with `degraded` between up and down. */
export function decideQuorum(prev: MonitorState, j: Judgement, msg: string, now: Date, inMaintenance: boolean): Decision {
  if (inMaintenance) return decide(prev, { up: true, msg }, now, true);
  const interval = prev.interval_secs;
  switch (j.verdict) {
    case "none":
      return { status: prev.status, retries: prev.retries, event: null, alert: null, next_check_secs: interval };
    case "down":
      return decide({ ...prev, max_retries: 0 }, { up: false, msg }, now);
    case "up": {
      const d = decide(prev, { up: true, msg }, now);
      // Leaving degraded is a recovery too: its warning gets its all-clear.
      return prev.status === "degraded" ? { ...d, alert: "up" } : d;
    }
    case "degraded": {
      if (prev.status === "degraded") return { status: "degraded", retries: 0, event: null, alert: null, next_check_secs: interval };
      return {
        status: "degraded",
        retries: 0,
        event: statusEvent(prev, "degraded", "degraded", msg, now),
        alert: "degraded",
        next_check_secs: interval,
      };
    }
  }
}
