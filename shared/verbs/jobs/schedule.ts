// When a job runs next: croner's reading of its pattern in UTC (the scheduler uses the same options).
import { Cron, type CronOptions } from "croner";

export const CRON_OPTIONS = { timezone: "UTC" } as const satisfies CronOptions;

export function nextRunAt(schedule: string, from: Date): Date | null {
  return new Cron(schedule, { ...CRON_OPTIONS, paused: true }).nextRun(from);
}
