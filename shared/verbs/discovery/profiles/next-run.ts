// A profile's schedule: a 5-field crontab (the reference's; croner would also take seconds and nicknames,
// which we refuse), read in UTC like the scheduler's jobs, and when its next run is due.
import { nextRunAt } from "../../jobs/schedule.ts";

/** Why `expr` is not a 5-field crontab croner can read, or null when it is. */
export function cronProblem(expr: string): string | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5)
    return `'${expr}' is not a 5-field crontab (minute hour day-of-month month day-of-week); it has ${fields.length} field${fields.length === 1 ? "" : "s"}`;
  try {
    nextRunAt(expr, new Date(0));
    return null;
  } catch (e) {
    return `'${expr}' is not a valid crontab: ${(e as Error).message}`;
  }
}

/** When the profile's next scheduled run is due after `from`: null without a schedule, or while disabled or paused. */
export function profileNextRun(p: { schedule_cron: string | null; enabled: boolean; paused_at: Date | null }, from: Date): Date | null {
  if (!p.schedule_cron || !p.enabled || p.paused_at) return null;
  return nextRunAt(p.schedule_cron, from);
}
