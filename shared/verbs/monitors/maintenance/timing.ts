// Checking a maintenance window's timing before it is stored, and when it next begins. One-off: starts_at
// and ends_at (ends after it starts). Recurring: a croner pattern, duration_minutes and an IANA timezone
// (default UTC), optionally bounded by starts_at / ends_at. Whether a window is open now is
// shared/domain/monitors/maintenance-window.ts (the runner reads it too).
import { Cron } from "croner";
import type { ValidationIssue } from "../../../errors.ts";

export interface TimingFields {
  starts_at: Date | null;
  ends_at: Date | null;
  cron: string | null;
  duration_minutes: number | null;
  timezone: string | null;
}

const issue = (field: string, msg: string, type = "invalid"): ValidationIssue => ({ loc: ["body", field], msg, type });

export function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function cronError(pattern: string, timezone: string): string | null {
  try {
    new Cron(pattern, { timezone, paused: true });
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : "invalid pattern";
  }
}

/** The problems of a window's timing (empty when it is sound), and its kind. */
export function checkTiming(t: TimingFields): { kind: "one_off" | "recurring"; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const kind = t.cron ? "recurring" : "one_off";
  if (kind === "recurring") {
    const tz = t.timezone ?? "UTC";
    if (!validTimezone(tz)) issues.push(issue("timezone", `Unknown timezone "${tz}": use an IANA name such as Europe/Berlin.`));
    else {
      const error = cronError(t.cron!, tz);
      if (error) issues.push(issue("cron", `Not a cron pattern (croner syntax, e.g. "0 2 * * 0"): ${error}.`));
    }
    if (t.duration_minutes == null) issues.push(issue("duration_minutes", "A recurring window needs duration_minutes.", "missing"));
  } else {
    if (!t.starts_at) issues.push(issue("starts_at", "A one-off window needs starts_at (or give cron for a recurring one).", "missing"));
    if (!t.ends_at) issues.push(issue("ends_at", "A one-off window needs ends_at.", "missing"));
    if (t.duration_minutes != null)
      issues.push(issue("duration_minutes", "duration_minutes is for recurring windows; a one-off window ends at ends_at."));
  }
  if (t.starts_at && t.ends_at && t.ends_at <= t.starts_at) issues.push(issue("ends_at", "Must be after starts_at."));
  return { kind, issues };
}

/** When the window next begins after `now` (null: never again, or disabled). */
export function nextStart(w: TimingFields & { enabled: boolean; kind: string }, now: Date): Date | null {
  if (!w.enabled) return null;
  if (w.kind === "one_off") return w.starts_at && w.starts_at > now ? w.starts_at : null;
  if (!w.cron) return null;
  try {
    const from = w.starts_at && w.starts_at > now ? new Date(w.starts_at.getTime() - 1000) : now;
    const next = new Cron(w.cron, { timezone: w.timezone ?? "UTC", paused: true }).nextRun(from);
    return next && (!w.ends_at || next < w.ends_at) ? next : null;
  } catch {
    return null;
  }
}
