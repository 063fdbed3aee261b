// The monitor state machine (spec/catalogue.tsv, group monitors; docs/adr/0117-the-monitor-runner-alerts.md): what one check
// result does to a monitor. Pure, so the runner, the agent-probe path and the tests share one rule.
//
// - success: up stays up (no event); anything else becomes up with an `up` event, and a recovery
//   alert when it was down. The failure counter (`retries`) resets.
// - failure: the counter grows; while the monitor is not down and the counter is within max_retries it
//   is `pending` (an event only on entering pending) and is checked again after retry_interval_secs;
//   a down monitor stays down silently; otherwise it goes down with a `down` event and a down alert.
//   So max_retries=0 sends the first failure straight to down.
// - maintenance (ours; the original declared it but never produced it): while a window covers the
//   monitor its status is `maintenance` whatever the check said, the counter stays 0 and no alert is
//   raised; the first result after the window decides from there as from `pending`.

// `degraded` (docs/adr/0441) is a multi-vantage monitor's: some, but fewer than its quorum, of its vantage
// points report down (shared/domain/monitors/quorum.ts decides it; this single-result rule never does).
export type MonitorStatus = "up" | "pending" | "degraded" | "down" | "maintenance";
export type MonitorEventType = "up" | "down" | "pending" | "degraded" | "maintenance";

export interface CheckSample {
  metric: string;
  value: number | null;
}

export interface MonitorState {
  status: MonitorStatus;
  /** Consecutive failures. */
  retries: number;
  max_retries: number;
  interval_secs: number;
  retry_interval_secs: number | null;
  last_status_change_at: Date | null;
}

export interface Decision {
  status: MonitorStatus;
  retries: number;
  /** Set when the status changes. */
  event: {
    event_type: MonitorEventType;
    status_from: MonitorStatus;
    status_to: MonitorStatus;
    msg: string;
    duration_secs: number | null;
  } | null;
  /** An alert to hand to the notifications: down, degraded (quorum monitors), or recovered from either. */
  alert: "down" | "up" | "degraded" | null;
  /** Seconds until the next check is due. */
  next_check_secs: number;
}

export const EVENT_MSG_LIMIT = 2000;

/** The event of a change from `prev.status` to `to`: how long the previous status lasted. */
export function statusEvent(prev: MonitorState, to: MonitorStatus, event_type: MonitorEventType, msg: string, now: Date) {
  const duration_secs = prev.last_status_change_at
    ? Math.max(0, Math.round((now.getTime() - prev.last_status_change_at.getTime()) / 1000))
    : null;
  return { event_type, status_from: prev.status, status_to: to, msg: msg.slice(0, EVENT_MSG_LIMIT), duration_secs };
}

export function decide(prev: MonitorState, result: { up: boolean; msg: string }, now: Date, inMaintenance = false): Decision {
  const change = (to: MonitorStatus, event_type: MonitorEventType) => statusEvent(prev, to, event_type, result.msg, now);
  const interval = prev.interval_secs;

  if (inMaintenance) {
    const event = prev.status === "maintenance" ? null : change("maintenance", "maintenance");
    return { status: "maintenance", retries: 0, event, alert: null, next_check_secs: interval };
  }
  if (result.up) {
    if (prev.status === "up") return { status: "up", retries: 0, event: null, alert: null, next_check_secs: interval };
    return { status: "up", retries: 0, event: change("up", "up"), alert: prev.status === "down" ? "up" : null, next_check_secs: interval };
  }
  const retries = prev.retries + 1;
  if (prev.status === "down") return { status: "down", retries, event: null, alert: null, next_check_secs: interval };
  if (retries <= prev.max_retries) {
    const event = prev.status === "pending" ? null : change("pending", "pending");
    return { status: "pending", retries, event, alert: null, next_check_secs: prev.retry_interval_secs ?? interval };
  }
  return { status: "down", retries, event: change("down", "down"), alert: "down", next_check_secs: interval };
}
