// How one rule judges one node (docs/alert-rules.md): pure, so the engine, the rule test over stored
// history and the unit tests share it. A sample enters the window; the window's aggregate is compared
// with the threshold; a breach held for `for_secs` fires; a firing rule clears only once the aggregate is
// past the clear threshold (hysteresis), so a value hovering at the threshold does not flap.

export type Operator = ">" | "<";
export const OPERATORS = [">", "<"] as const;
export const AGGREGATIONS = ["last", "avg", "p50", "p75", "p90", "p95", "p99"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const RULE_SEVERITIES = ["info", "warning", "critical"] as const;
export const SCOPE_KINDS = ["node", "tag", "site", "all"] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

/** What evaluation needs of a rule. */
export interface RuleCondition {
  operator: Operator;
  threshold: number;
  clear_threshold: number;
  aggregation: Aggregation;
  window_secs: number;
  for_secs: number;
}

/** A (rule, node)'s state: whether it fires, since when a breach has held, and the window's values. */
export interface NodeState {
  state: "ok" | "pending" | "firing";
  pending_since: number | null;
  firing_since: number | null;
  /** The latest sample's time taken in (ms): an older sample arriving late is not evaluated again. */
  last_ts: number;
  /**
   * The window's sample times (ms) and values, oldest first, side by side (only for aggregations other
   * than `last`). Two arrays of plain numbers rather than one of [ts, value] pairs: a process judging
   * 1,000 rules on 1,000 nodes holds a million windows, and ten million pairs were objects the collector's
   * marking had to visit, in steps long enough to be the commit's p99 (docs/adr/0451).
   */
  window_ts: number[];
  window_v: number[];
}

export type Transition = "pending" | "ok" | "firing" | "cleared";

/** The most values a window keeps (a rule's window at one sample a second is at most an hour). */
export const MAX_WINDOW_VALUES = 3600;

export const freshState = (): NodeState => ({
  state: "ok",
  pending_since: null,
  firing_since: null,
  last_ts: Number.NEGATIVE_INFINITY,
  window_ts: [],
  window_v: [],
});

/**
 * Scratch space for percentiles: a window is copied here and sorted in place, so judging a percentile
 * allocates nothing (a batch judges thousands of windows; each sorted copy was garbage: docs/adr/0474).
 * A Float64Array sorts numerically without a comparator.
 */
const scratch = new Float64Array(MAX_WINDOW_VALUES + 1);

/** The p-th percentile (0..100) of the values, linearly interpolated between closest ranks. */
export function percentile(values: readonly number[], p: number): number {
  const n = values.length;
  if (n === 1) return values[0]!;
  // A window is at most MAX_WINDOW_VALUES long; a longer list (a caller of its own) gets its own copy.
  const sorted = n <= scratch.length ? scratch.subarray(0, n) : new Float64Array(n);
  for (let i = 0; i < n; i++) sorted[i] = values[i]!;
  sorted.sort();
  const rank = (p / 100) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export function aggregate(rule: Pick<RuleCondition, "aggregation">, values: readonly number[], last: number): number {
  if (rule.aggregation === "last" || values.length === 0) return last;
  if (rule.aggregation === "avg") {
    let sum = 0;
    for (const v of values) sum += v;
    return sum / values.length;
  }
  return percentile(values, Number(rule.aggregation.slice(1)));
}

export const breaches = (rule: RuleCondition, value: number) => (rule.operator === ">" ? value > rule.threshold : value < rule.threshold);
export const clears = (rule: RuleCondition, value: number) =>
  rule.operator === ">" ? value < rule.clear_threshold : value > rule.clear_threshold;

/** Whether the clear threshold is on the safe side of the threshold (or equal: no hysteresis). */
export const clearIsSafe = (rule: Pick<RuleCondition, "operator" | "threshold" | "clear_threshold">) =>
  rule.operator === ">" ? rule.clear_threshold <= rule.threshold : rule.clear_threshold >= rule.threshold;

/**
 * Takes one sample (ts ms, value) into `state` (changed in place) and answers the transition it caused,
 * with the aggregate it judged; null when the sample is older than one already taken.
 */
export function step(
  rule: RuleCondition,
  state: NodeState,
  ts: number,
  value: number,
): { transition: Transition | null; value: number } | null {
  if (ts <= state.last_ts) return null;
  state.last_ts = ts;
  if (rule.aggregation !== "last") {
    const times = state.window_ts;
    times.push(ts);
    state.window_v.push(value);
    const from = ts - rule.window_secs * 1000;
    let drop = 0;
    while (drop < times.length && times[drop]! <= from) drop++;
    drop = Math.max(drop, times.length - MAX_WINDOW_VALUES);
    if (drop > 0) {
      const values = state.window_v;
      // Shifted down within the same arrays rather than spliced: no array is returned or reallocated, so a
      // steady window allocates nothing the young generation must keep.
      times.copyWithin(0, drop);
      values.copyWithin(0, drop);
      times.length -= drop;
      values.length -= drop;
    }
  }
  const judged = aggregate(rule, state.window_v, value);
  if (state.state === "firing") {
    if (!clears(rule, judged)) return { transition: null, value: judged };
    state.state = "ok";
    state.pending_since = null;
    state.firing_since = null;
    return { transition: "cleared", value: judged };
  }
  if (!breaches(rule, judged)) {
    if (state.state !== "pending") return { transition: null, value: judged };
    state.state = "ok";
    state.pending_since = null;
    return { transition: "ok", value: judged };
  }
  const since = state.pending_since ?? ts;
  if (ts - since >= rule.for_secs * 1000) {
    state.state = "firing";
    state.pending_since = null;
    state.firing_since = ts;
    return { transition: "firing", value: judged };
  }
  if (state.state === "pending") return { transition: null, value: judged };
  state.state = "pending";
  state.pending_since = ts;
  return { transition: "pending", value: judged };
}
