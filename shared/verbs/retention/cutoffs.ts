// The ages of the retention table (spec 2.6, 6.7), from the injected clock:
//   younger than hot_days: untouched; hot_days..warm_days: hourly averages; older than warm_days: deleted.
// Only whole hours are downsampled (an hour is aggregated once all of it is older than hot_days), and an
// hourly row expires once all of its hour is older than warm_days, so a second run at the same instant
// finds nothing to do.
import { DAY_MS } from "../../domain/regression.ts";

export const HOUR_MS = 3_600_000;

export interface RetentionCutoffs {
  /** Raw rows older than this are expired. */
  warm: string;
  /** Hourly rows whose hour starts before this are expired (their whole hour is older than warm). */
  warmHour: string;
  /** Raw rows older than this (and not expired) are downsampled. */
  hotHour: string;
}

const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

export function retentionCutoffs(now: Date, hotDays: number, warmDays: number): RetentionCutoffs {
  const warm = now.getTime() - warmDays * DAY_MS;
  // Settings keep hot < warm; should they not, nothing is downsampled past the expiry age.
  const hot = Math.max(now.getTime() - hotDays * DAY_MS, warm);
  return {
    warm: new Date(warm).toISOString(),
    warmHour: new Date(floorHour(warm)).toISOString(),
    hotHour: new Date(floorHour(hot)).toISOString(),
  };
}
