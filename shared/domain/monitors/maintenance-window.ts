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

export function windowOpen(w: WindowTiming, now: Date): boolean {
  if (!w.enabled) return false;
  if (w.kind === "one_off") return w.starts_at !== null && w.ends_at !== null && w.starts_at <= now && now < w.ends_at;
  if (w.kind !== "recurring" || !w.cron || !w.duration_minutes) return false;
  // Bounded by starts_at/ends_at when given (a recurring window that begins next month).
  if ((w.starts_at && now < w.starts_at) || (w.ends_at && now >= w.ends_at)) return false;
  try {
    const since = new Date(now.getTime() - w.duration_minutes * 60_000);
    // The first occurrence after (now - duration): open when it has already begun.
    const next = new Cron(w.cron, { timezone: w.timezone ?? "UTC", paused: true }).nextRun(since);
    return next !== null && next <= now;
  } catch {
    return false;
  }
}
