// Whether a maintenance window is open at an instant: a one-off window between starts_at and ends_at, a
// recurring one (croner pattern in its timezone, default UTC) for duration_minutes after each occurrence.
import { Cron } from "croner";

export interface WindowTiming {
  enabled: boolean;
  kind: string;
  starts_at: Date | null;
  ends_at: Date | null;
  cron: string | null;
  duration_minutes: number | null;
  timezone: string | null;
}

/** The occurrence open at `now` as [start, end] (a recurring window's current run, ending at ends_at at the latest), or null when closed. */
export function openSpan(w: WindowTiming, now: Date): [Date, Date] | null {
  if (!w.enabled) return null;
  if (w.kind === "one_off")
    return w.starts_at !== null && w.ends_at !== null && w.starts_at <= now && now < w.ends_at ? [w.starts_at, w.ends_at] : null;
  if (w.kind !== "recurring" || !w.cron || !w.duration_minutes) return null;
  // Bounded by starts_at/ends_at when given (a recurring window that begins next month).
  if ((w.starts_at && now < w.starts_at) || (w.ends_at && now >= w.ends_at)) return null;
  const span = w.duration_minutes * 60_000;
  try {
    // The first occurrence after (now - duration): open when it has already begun.
    const start = new Cron(w.cron, { timezone: w.timezone ?? "UTC", paused: true }).nextRun(new Date(now.getTime() - span));
    if (start === null || start > now) return null;
    const end = new Date(start.getTime() + span);
    return [start, w.ends_at && w.ends_at < end ? w.ends_at : end];
  } catch {
    return null;
  }
}

export function windowOpen(w: WindowTiming, now: Date): boolean {
  return openSpan(w, now) !== null;
}
