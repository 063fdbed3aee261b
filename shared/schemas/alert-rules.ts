// [alert-rules] request and response shapes of the threshold alert rules (ours; docs/alert-rules.md).
// The metric name is checked against the catalogue by the verb (422 naming `metric`), as is the clear
// threshold's side, since PATCH judges them against the stored rule.
import * as v from "valibot";
import { AGGREGATIONS, OPERATORS, RULE_SEVERITIES, SCOPE_KINDS } from "../domain/alert-rules/evaluate.ts";
import { Name, patchBody, RefId, writeBody } from "./fields.ts";
import { listQuery, listResponse, TextFilter } from "./list-query.ts";

const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);
const BoolQuery = v.optional(
  v.pipe(
    oneOf(["true", "false"] as const),
    v.transform((s) => s === "true"),
  ),
);
const seconds = (min: number, max: number) =>
  v.pipe(
    v.number(),
    v.integer("Must be a whole number."),
    v.minValue(min, `Must be at least ${min}.`),
    v.maxValue(max, `Must be at most ${max}.`),
  );
const Finite = v.pipe(
  v.number(),
  v.check((n) => Number.isFinite(n) && Math.abs(n) <= 1e15, "Must be a finite number."),
);

const ruleFields = {
  name: Name,
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2000)))),
  enabled: v.optional(v.boolean()),
  metric: v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(300)),
  operator: oneOf(OPERATORS),
  threshold: Finite,
  clear_threshold: v.optional(v.nullable(Finite)),
  aggregation: v.optional(oneOf(AGGREGATIONS)),
  window_secs: v.optional(seconds(1, 3600)),
  for_secs: v.optional(seconds(0, 86_400)),
  severity: v.optional(oneOf(RULE_SEVERITIES)),
  scope_kind: v.optional(oneOf(SCOPE_KINDS)),
  scope_node_id: RefId,
  scope_tag: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64)))),
  scope_site_id: RefId,
};
export const AlertRuleBody = writeBody(ruleFields);
export const AlertRulePatchBody = patchBody(ruleFields);
export type AlertRuleInput = v.InferOutput<typeof AlertRulePatchBody>;
export const AlertRuleListQuery = listQuery(
  ["name", "id", "created_at", "metric", "severity"] as const,
  {
    enabled: BoolQuery,
    metric: TextFilter,
  },
  "name",
);

export const AlertRule = v.object({
  id: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  enabled: v.boolean(),
  metric: v.string(),
  operator: oneOf(OPERATORS),
  threshold: v.number(),
  clear_threshold: v.number(),
  aggregation: oneOf(AGGREGATIONS),
  window_secs: v.number(),
  for_secs: v.number(),
  severity: oneOf(RULE_SEVERITIES),
  scope_kind: oneOf(SCOPE_KINDS),
  scope_node_id: v.nullable(v.number()),
  scope_tag: v.nullable(v.string()),
  scope_site_id: v.nullable(v.number()),
  /** Nodes the rule fires on now. */
  firing_count: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});
export type AlertRuleShape = v.InferInput<typeof AlertRule>;
export const AlertRuleList = listResponse(AlertRule);

export const AlertRuleNodeState = v.object({
  hardware_id: v.number(),
  hardware_name: v.nullable(v.string()),
  state: oneOf(["ok", "pending", "firing"] as const),
  pending_since: v.nullable(v.string()),
  firing_since: v.nullable(v.string()),
  last_value: v.nullable(v.number()),
  changed_at: v.string(),
});
export const AlertRuleStateList = v.object({ rule_id: v.number(), items: v.array(AlertRuleNodeState) });
export type AlertRuleStateListShape = v.InferInput<typeof AlertRuleStateList>;

export const AlertRuleTestTransition = v.object({
  hardware_id: v.number(),
  hardware_name: v.nullable(v.string()),
  transition: oneOf(["pending", "ok", "firing", "cleared"] as const),
  at: v.string(),
  value: v.nullable(v.number()),
});
export const AlertRuleTestResult = v.object({
  from: v.string(),
  to: v.string(),
  /** Nodes in scope with stored values of the metric in the hour. */
  nodes_evaluated: v.number(),
  samples: v.number(),
  /** Every transition, oldest first; `firing_now` lists the nodes left firing at the end. */
  transitions: v.array(AlertRuleTestTransition),
  firing_now: v.array(v.number()),
});
export type AlertRuleTestResultShape = v.InferInput<typeof AlertRuleTestResult>;
