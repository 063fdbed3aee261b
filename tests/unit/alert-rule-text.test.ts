// The console's words for alert rules (web/src/alert-rules/rule-text.ts): a rule's condition in one line,
// and the rule test's transitions as one sentence per node, nodes that fired first.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  clock,
  conditionText as conditionIn,
  duration,
  outcomes as outcomesIn,
  type Say,
  type TestResult,
} from "../../web/src/alert-rules/rule-text.ts";

// The English catalogue the console uses, with i18next's {{variable}} interpolation: the same words.
const EN = JSON.parse(readFileSync(new URL("../../web/src/locales/en/alert-rules.json", import.meta.url), "utf8")) as Record<
  string,
  string
>;
const say: Say = (key, vars = {}) => {
  const text = EN[key.replace(/^alert-rules:/, "")];
  if (text === undefined) throw new Error(`no English text for ${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));
};
const conditionText = (r: Parameters<typeof conditionIn>[1]) => conditionIn(say, r);
const outcomes = (r: TestResult) => outcomesIn(say, r);

const at = (min: number) => new Date(Date.UTC(2026, 10, 29, 14, min)).toISOString();
const result = (transitions: TestResult["transitions"], firing_now: number[] = []): TestResult => ({
  from: at(0),
  to: at(59),
  nodes_evaluated: 3,
  samples: 180,
  transitions,
  firing_now,
});
const t = (hardware_id: number, transition: TestResult["transitions"][number]["transition"], min: number, value: number | null) => ({
  hardware_id,
  hardware_name: `node-${hardware_id}`,
  transition,
  at: at(min),
  value,
});

describe("rule condition text", () => {
  it("writes durations exactly", () => {
    expect([0, 45, 300, 3600, 5400, 3661].map(duration)).toEqual(["0s", "45s", "5m", "1h", "1h30m", "1h1m1s"]);
  });

  it("names the aggregate and window, the hold and where it clears", () => {
    const rule = {
      metric: "host.cpu_pct",
      aggregation: "avg",
      window_secs: 300,
      operator: ">",
      threshold: 90,
      for_secs: 300,
      clear_threshold: 80,
    } as const;
    expect(conditionText(rule)).toBe("host.cpu_pct avg 5m > 90 for 5m, clears < 80");
    expect(conditionText({ ...rule, aggregation: "last", for_secs: 0 })).toBe("host.cpu_pct > 90, clears < 80");
    expect(
      conditionText({ ...rule, metric: "forecast.disk_full_days", aggregation: "last", operator: "<", threshold: 7, clear_threshold: 14 }),
    ).toBe("forecast.disk_full_days < 7 for 5m, clears > 14");
  });
});

describe("rule test in words", () => {
  it("says per node when it would have fired and cleared, fired ones first", () => {
    const out = outcomes(
      result(
        [
          t(2, "pending", 1, 91),
          t(1, "pending", 1, 95),
          t(2, "ok", 3, 70),
          t(1, "firing", 2, 93.14),
          t(1, "cleared", 20, 61),
          t(1, "firing", 40, 99),
        ],
        [1],
      ),
    );
    expect(out).toEqual([
      {
        hardware_id: 1,
        name: "node-1",
        fired: true,
        sentence: `would have fired at ${clock(at(2))} (value 93.1), cleared at ${clock(at(20))} (value 61), fired at ${clock(at(40))} (value 99) and still be firing`,
      },
      {
        hardware_id: 2,
        name: "node-2",
        fired: false,
        sentence: `would not have fired in the last hour (pending at ${clock(at(1))} (value 91) and back to ok at ${clock(at(3))} (value 70))`,
      },
    ]);
  });

  it("has no sentence for a node that never left ok", () => {
    expect(outcomes(result([]))).toEqual([]);
  });
});
