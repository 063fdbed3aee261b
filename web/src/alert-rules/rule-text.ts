// Rules and their test answer in words: the condition as one line ("host.cpu_pct avg 5m > 90 for 5m,
// clears < 80") for the list and the rule's page, and per node what the rule would have done in the last
// hour ("would have fired at 14:02 (value 93.1) and cleared at 14:20 (value 61)") for the form's test.
import type { paths } from "../api/schema.d.ts";

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
  r: Pick<RuleShape, "metric" | "aggregation" | "window_secs" | "operator" | "threshold" | "for_secs" | "clear_threshold">,
): string {
  // `last` compares each sample itself: its window does not matter.
  const measured = r.aggregation === "last" ? r.metric : `${r.metric} ${r.aggregation} ${duration(r.window_secs)}`;
  const held = r.for_secs > 0 ? ` for ${duration(r.for_secs)}` : "";
  // A firing `>` rule clears once the value is below the clear threshold, a `<` rule once above it.
  const clearOp = r.operator === ">" ? "<" : ">";
  return `${measured} ${r.operator} ${r.threshold}${held}, clears ${clearOp} ${r.clear_threshold}`;
}

export const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const valued = (t: Transition) => (t.value == null ? "" : ` (value ${Math.round(t.value * 10) / 10})`);
const list = (phrases: string[]) =>
  phrases.length < 2 ? (phrases[0] ?? "") : `${phrases.slice(0, -1).join(", ")} and ${phrases[phrases.length - 1]}`;

export interface NodeOutcome {
  hardware_id: number;
  name: string;
  sentence: string;
  fired: boolean;
}

/** One sentence per node that changed state in the hour, nodes that fired first. */
export function outcomes(result: TestResult): NodeOutcome[] {
  const byNode = new Map<number, Transition[]>();
  for (const t of result.transitions) byNode.set(t.hardware_id, [...(byNode.get(t.hardware_id) ?? []), t]);
  const out: NodeOutcome[] = [];
  for (const [id, ts] of byNode) {
    const name = ts[0]!.hardware_name ?? `node #${id}`;
    const decisive = ts.filter((t) => t.transition === "firing" || t.transition === "cleared");
    if (decisive.length === 0) {
      // Pending that went back to ok: the condition held, but not for long enough to fire.
      const brief = ts.map((t) => `${t.transition === "pending" ? "pending" : "back to ok"} at ${clock(t.at)}${valued(t)}`);
      out.push({ hardware_id: id, name, fired: false, sentence: `would not have fired in the last hour (${list(brief)})` });
      continue;
    }
    const phrases = decisive.map((t) => `${t.transition === "firing" ? "fired" : "cleared"} at ${clock(t.at)}${valued(t)}`);
    if (result.firing_now.includes(id)) phrases.push("still be firing");
    out.push({ hardware_id: id, name, fired: true, sentence: `would have ${list(phrases)}` });
  }
  return out.sort((a, b) => Number(b.fired) - Number(a.fired) || a.name.localeCompare(b.name));
}
