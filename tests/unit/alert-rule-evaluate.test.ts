// step() and the metric catalogue of the alert rules (shared/domain/alert-rules/): the pure judgement the
// engine and the rule test share.
import { describe, expect, it } from "vitest";
import { clearIsSafe, freshState, percentile, type RuleCondition, step } from "../../shared/domain/alert-rules/evaluate.ts";
import { agentFrameValues, findMetric, liveRowValues } from "../../shared/domain/alert-rules/metrics.ts";

const rule = (over: Partial<RuleCondition> = {}): RuleCondition => ({
  operator: ">",
  threshold: 90,
  clear_threshold: 70,
  aggregation: "last",
  window_secs: 300,
  for_secs: 60,
  ...over,
});
const run = (r: RuleCondition, points: [number, number][]) => {
  const s = freshState();
  return points.map(([secs, v]) => step(r, s, secs * 1000, v)?.transition ?? null);
};

describe("step", () => {
  it("goes pending, fires once the breach held for_secs, holds between the thresholds, clears past the clear threshold", () => {
    expect(
      run(rule(), [
        [0, 95],
        [30, 96],
        [60, 97],
        [90, 80],
        [120, 69],
      ]),
    ).toEqual(["pending", null, "firing", null, "cleared"]);
  });
  it("a breach that lapses before for_secs goes back to ok; for_secs 0 fires at once", () => {
    expect(
      run(rule(), [
        [0, 95],
        [30, 50],
        [60, 95],
      ]),
    ).toEqual(["pending", "ok", "pending"]);
    expect(run(rule({ for_secs: 0 }), [[0, 91]])).toEqual(["firing"]);
  });
  it("< rules fire below and clear above; a sample older than one taken is ignored", () => {
    const r = rule({ operator: "<", threshold: 7, clear_threshold: 14, for_secs: 0 });
    const s = freshState();
    expect(step(r, s, 2000, 5)?.transition).toBe("firing");
    expect(step(r, s, 1000, 50)).toBeNull();
    expect(step(r, s, 3000, 10)?.transition).toBeNull();
    expect(step(r, s, 4000, 15)?.transition).toBe("cleared");
  });
  it("aggregates over the window: avg and percentiles drop what left it", () => {
    const r = rule({ aggregation: "avg", window_secs: 60, for_secs: 0 });
    const s = freshState();
    step(r, s, 0, 100);
    expect(step(r, s, 30_000, 60)?.value).toBe(80);
    expect(step(r, s, 60_000, 60)?.value).toBe(60);
    expect(percentile([1, 2, 3, 4, 5], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5], 90)).toBeCloseTo(4.6, 10);
  });
  it("a clear threshold is safe on its side or equal", () => {
    expect(clearIsSafe({ operator: ">", threshold: 90, clear_threshold: 90 })).toBe(true);
    expect(clearIsSafe({ operator: ">", threshold: 90, clear_threshold: 91 })).toBe(false);
    expect(clearIsSafe({ operator: "<", threshold: 7, clear_threshold: 5 })).toBe(false);
  });
});

describe("the metric catalogue", () => {
  it("knows host, live, forecast and per-filesystem metrics, and nothing else", () => {
    expect(findMetric("host.cpu_pct")?.source).toBe("agent");
    expect(findMetric("live.temp_c")?.column).toBe("temp_c");
    expect(findMetric("forecast.disk_full_days")?.source).toBe("forecast");
    expect(findMetric("host.fs_pct{/var/lib}")?.mount).toBe("/var/lib");
    expect(findMetric("host.fs_pct{var}")).toBeUndefined();
    expect(findMetric("host.bogomips")).toBeUndefined();
  });
  it("reads a frame's summary and filesystems, and a live row, by metric name", () => {
    expect(agentFrameValues({ cpu_pct: 12, root_disk_pct: 55, max_temp_c: null }, [{ mountpoint: "/", used_pct: 55 }])).toEqual({
      "host.cpu_pct": 12,
      "host.disk_pct": 55,
      "host.fs_pct{/}": 55,
    });
    expect(liveRowValues({ cpu_pct: 3, temp_c: null, uptime_s: 9 })).toEqual({ "live.cpu_pct": 3 });
  });
});
