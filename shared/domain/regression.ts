// Capacity forecast arithmetic (spec 2.2, 6.7): ordinary least squares over (epoch days, percent) and
// the instant the fitted line reaches 100 %. The analytics job does this in SQL (regr_slope and
// regr_intercept); these are the same formulas in TypeScript, the reference the tests check it against.

export const DAY_MS = 86_400_000;
/** Spec 8.3: the regression looks back this many days. */
export const FORECAST_WINDOW_DAYS = 14;
/** "Enough history": at least this many samples... */
export const FORECAST_MIN_SAMPLES = 10;
/** ...spread over at least this many days (a line through one afternoon says nothing about next month). */
export const FORECAST_MIN_SPAN_DAYS = 2;
/** Stored with each forecast: how far ahead a saturation date counts as a warning. */
export const WARNING_THRESHOLD_DAYS = 30;
export const FULL_PCT = 100;
/** The last instant ISO 8601 writes with a four-digit year; a later crossing is reported as none. */
export const LATEST_PROJECTION_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
export const EARLIEST_PROJECTION_MS = Date.UTC(1, 0, 1);

export interface Line {
  /** Percentage points per day. */
  slope: number;
  /** The value at x = 0 (the Unix epoch when x is in epoch days). */
  intercept: number;
}

/** Least-squares fit of y on x; null for fewer than two points or when every x is the same. */
export function leastSquares(points: readonly { x: number; y: number }[]): Line | null {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/** A sample time as the regression's x: days since the Unix epoch. */
export const epochDays = (at: Date | number): number => (typeof at === "number" ? at : at.getTime()) / DAY_MS;

/** Whether a metric's samples are enough to fit a line worth publishing. */
export function hasEnoughHistory(samples: number, spanDays: number): boolean {
  return samples >= FORECAST_MIN_SAMPLES && spanDays >= FORECAST_MIN_SPAN_DAYS;
}

/**
 * When the line (x in epoch days) reaches 100 %: only for a positive slope (spec 2.2), else null. A
 * line already above 100 crossed it in the past, and that past instant is what it answers.
 */
export function projectedFullAt(line: Line): Date | null {
  if (!(line.slope > 0)) return null;
  const ms = ((FULL_PCT - line.intercept) / line.slope) * DAY_MS;
  if (!(ms <= LATEST_PROJECTION_MS && ms >= EARLIEST_PROJECTION_MS)) return null;
  return new Date(ms);
}
