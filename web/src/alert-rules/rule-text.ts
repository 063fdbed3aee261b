// Rules and their test answer in words: the condition as one line ("host.cpu_pct avg 5m > 90 for 5m,
// clears < 80") for the list and the rule's page, and per node what the rule would have done in the last
// hour ("would have fired at 14:02 (value 93.1) and cleared at 14:20 (value 61)") for the form's test.
// The words come from the alert-rules catalogue through the `t` the caller passes (its component's
// useT(); a unit test passes one over the English catalogue), so this file runs in Node too.
import type { paths } from "../api/schema.d.ts";

/** A translation function: i18next's `t`, or any with the same call shape. */
export type Say = (key: string, vars?: Record<string, unknown>) => string;

type RuleShape = paths["/api/v1/alert-rules/{rule_id}"]["get"]["responses"][200]["content"]["application/json"];
export type TestResult = paths["/api/v1/alert-rules/test"]["post"]["responses"][200]["content"]["application/json"];
type Transition = TestResult["transitions"][number];

/** Seconds as the shortest exact "1h30m", "5m", "45s". */
export function duration(secs: number): string {
  if (secs <= 0) return "0s";
  const parts: string[] = [];
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const s = secs % 60;
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m}m`);
  if (s) parts.push(`${s}s`);
  return parts.join("");
}

export function conditionText(
  t: Say,
  r: Pick<RuleShape, "metric" | "aggregation" | "window_secs" | "operator" | "threshold" | "for_secs" | "clear_threshold">,
): string {
  // `last` compares each sample itself: its window does not matter.
  const measured = r.aggregation === "last" ? r.metric : `${r.metric} ${r.aggregation} ${duration(r.window_secs)}`;
  const held = r.for_secs > 0 ? ` ${t("alert-rules:ruleText.for", { duration: duration(r.for_secs) })}` : "";
  // A firing `>` rule clears once the value is below the clear threshold, a `<` rule once above it.
  const clearOp = r.operator === ">" ? "<" : ">";
  const clears = t("alert-rules:ruleText.clears", { operator: clearOp, threshold: r.clear_threshold });
  return `${measured} ${r.operator} ${r.threshold}${held}, ${clears}`;
}

export const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const valued = (t: Say, tr: Transition) =>
  tr.value == null ? "" : ` ${t("alert-rules:ruleText.value", { value: Math.round(tr.value * 10) / 10 })}`;
const list = (t: Say, phrases: string[]) =>
  phrases.length < 2
    ? (phrases[0] ?? "")
    : t("alert-rules:ruleText.list", { rest: phrases.slice(0, -1).join(", "), last: phrases[phrases.length - 1] });

export interface NodeOutcome {
  hardware_id: number;
  name: string;
  sentence: string;
  fired: boolean;
}

/** One sentence per node that changed state in the hour, nodes that fired first. */
export function outcomes(t: Say, result: TestResult): NodeOutcome[] {
  const byNode = new Map<number, Transition[]>();
  for (const tr of result.transitions) byNode.set(tr.hardware_id, [...(byNode.get(tr.hardware_id) ?? []), tr]);
  const out: NodeOutcome[] = [];
  for (const [id, ts] of byNode) {
    const name = ts[0]!.hardware_name ?? t("alert-rules:ruleText.node", { id });
    const decisive = ts.filter((tr) => tr.transition === "firing" || tr.transition === "cleared");
    if (decisive.length === 0) {
      // Pending that went back to ok: the condition held, but not for long enough to fire.
      const brief = ts.map(
        (tr) =>
          (tr.transition === "pending"
            ? t("alert-rules:ruleText.pendingAt", { time: clock(tr.at) })
            : t("alert-rules:ruleText.backToOkAt", { time: clock(tr.at) })) + valued(t, tr),
      );
      out.push({ hardware_id: id, name, fired: false, sentence: t("alert-rules:ruleText.wouldNot", { events: list(t, brief) }) });
      continue;
    }
    const phrases = decisive.map(
      (tr) =>
        (tr.transition === "firing"
          ? t("alert-rules:ruleText.firedAt", { time: clock(tr.at) })
          : t("alert-rules:ruleText.clearedAt", { time: clock(tr.at) })) + valued(t, tr),
    );
    if (result.firing_now.includes(id)) phrases.push(t("alert-rules:ruleText.stillFiring"));
    out.push({ hardware_id: id, name, fired: true, sentence: t("alert-rules:ruleText.would", { events: list(t, phrases) }) });
  }
  return out.sort((a, b) => Number(b.fired) - Number(a.fired) || a.name.localeCompare(b.name));
}
