// The alerts a threshold rule raises on a node (docs/alert-rules.md): `metric.firing` / `metric.cleared`
// through the notification routes, and the `alert_rule` event on the telemetry stream. Raised by the
// evaluation on a transition, and by a rule's change or deletion for the nodes it leaves firing.
import { enqueueAlert } from "../notifications/enqueue-alert.ts";
import type { VerbScope } from "../verb.ts";
import type { CompiledRule } from "./compiled-rules.ts";

/** Why a firing node is cleared without its metric having come back: the rule that fired is gone. */
export type RetiredBy = "rule_changed" | "rule_deleted";

export interface RuleAlert {
  rule: CompiledRule;
  node: { id: number; name: string };
  firing: boolean;
  /** The judged value (null: none, or not finite). */
  value: number | null;
  at: Date;
  title: string;
  body: string;
  reason?: RetiredBy;
}

export const fmt = (v: number) => (Number.isFinite(v) ? String(Math.round(v * 100) / 100) : String(v));

export async function raiseRuleAlert(s: VerbScope, a: RuleAlert): Promise<void> {
  const { rule, node } = a;
  const reason = a.reason ? { reason: a.reason } : {};
  await enqueueAlert(s, {
    kind: a.firing ? "metric.firing" : "metric.cleared",
    severity: rule.severity,
    monitor_id: null,
    target_type: "hardware",
    target_id: node.id,
    title: a.title,
    body: a.body,
    detail: {
      rule_id: rule.id,
      rule_name: rule.name,
      metric: rule.metric,
      value: a.value,
      operator: rule.operator,
      threshold: rule.threshold,
      clear_threshold: rule.clear_threshold,
      aggregation: rule.aggregation,
      window_secs: rule.window_secs,
      for_secs: rule.for_secs,
      ...reason,
    },
    occurred_at: a.at,
  });
  s.emit("telemetry", {
    type: "alert_rule",
    transition: a.firing ? "firing" : "cleared",
    rule_id: rule.id,
    rule_name: rule.name,
    metric: rule.metric,
    severity: rule.severity,
    hardware_id: node.id,
    value: a.value,
    at: a.at.toISOString(),
    ...reason,
  });
}
