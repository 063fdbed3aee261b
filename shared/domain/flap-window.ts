// Flap detection (spec 3.2, 6.7, 8.3): 5 or more UP/DOWN transitions of a node inside any 30-minute
// window make an active flap incident; it resolves by itself when the count falls below 5. A window is
// closed at both ends: it holds the transitions at t - 30 min ... t. The analytics job counts the same
// way in SQL (count(*) over range between interval '30 minutes' preceding and current row); these pure
// functions are the reference the tests slide over.

export const FLAP_WINDOW_MS = 30 * 60_000;
export const FLAP_THRESHOLD = 5;
/** How far back each analytics run looks for flapping (the job runs daily). */
export const FLAP_EVALUATION_MS = 24 * 3_600_000;

export interface Observation {
  at: number;
  status: string;
}

/**
 * The instants at which the status changed, from observations in time order. `before` is the status
 * known before the first observation (a first observation with nothing before it is no transition).
 */
export function transitionTimes(observations: readonly Observation[], before: string | null = null): number[] {
  const out: number[] = [];
  let last = before?.toLowerCase() ?? null;
  for (const o of observations) {
    const status = o.status.toLowerCase();
    if (last !== null && status !== last) out.push(o.at);
    last = status;
  }
  return out;
}

export interface BusiestWindow {
  count: number;
  /** The first and last transition inside the window. */
  first: number;
  last: number;
}

/** The window holding the most transitions (the latest one on a tie); null without transitions. */
export function busiestWindow(times: readonly number[], windowMs = FLAP_WINDOW_MS): BusiestWindow | null {
  const sorted = [...times].sort((a, b) => a - b);
  let best: BusiestWindow | null = null;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    const t = sorted[end]!;
    // Peers of t (equal instants) belong to t's window too, as in SQL's RANGE frame.
    let last = end;
    while (last + 1 < sorted.length && sorted[last + 1] === t) last++;
    while (sorted[start]! < t - windowMs) start++;
    const count = last - start + 1;
    if (!best || count >= best.count) best = { count, first: sorted[start]!, last: t };
    end = last;
  }
  return best;
}

/** Transitions in the window that ends at `now`. */
export function countInWindow(times: readonly number[], now: number, windowMs = FLAP_WINDOW_MS): number {
  return times.filter((t) => t >= now - windowMs && t <= now).length;
}

export type FlapAction =
  /** A burst now: an active incident opens. */
  | "open"
  /** A burst inside the evaluation period that has calmed down since: recorded, already resolved. */
  | "open_resolved"
  /** An active incident still flapping: its count and window are refreshed. */
  | "update"
  /** An active incident whose latest window holds fewer than 5 transitions: resolved. */
  | "resolve"
  | "none";

export function flapAction(input: { active: boolean; busiest: number; latest: number }): FlapAction {
  if (input.active) return input.latest >= FLAP_THRESHOLD ? "update" : "resolve";
  if (input.busiest < FLAP_THRESHOLD) return "none";
  return input.latest >= FLAP_THRESHOLD ? "open" : "open_resolved";
}
