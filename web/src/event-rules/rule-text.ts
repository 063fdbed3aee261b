// What the event rule screens share: the kinds and actions a rule names, the condition's operators, the
// webhook sinks a rule can send to, and a rule's filters in one line.
import { CONDITION_OPS as EVENT_CONDITION_OPS, EVENT_ACTIONS, EVENT_KINDS } from "../../../shared/domain/event-rules.ts";
import { api, ok } from "../api/client.ts";
import type { paths } from "../api/client.ts";

export type Rule = paths["/api/v1/event-rules/{event_rule_id}"]["get"]["responses"][200]["content"]["application/json"];
type Body = NonNullable<paths["/api/v1/event-rules"]["post"]["requestBody"]>["content"]["application/json"];
export type RuleKind = Body["kinds"][number];
export type RuleAction = Body["actions"][number];
export type ConditionOp = NonNullable<Body["condition"]>["op"];

/** The scope event rules need (as the sinks they send to). */
export const EVENT_RULES_SCOPE = "admin:notifications";

// The server's own vocabulary (shared/domain/event-rules.ts), typed as the API's body takes it.
export const RULE_KINDS: readonly RuleKind[] = EVENT_KINDS;
export const RULE_ACTIONS: readonly RuleAction[] = EVENT_ACTIONS;
export const CONDITION_OPS: readonly ConditionOp[] = EVENT_CONDITION_OPS;

/** A condition's value as typed: `in` takes a comma-separated list, the others one value. */
export function conditionValue(op: ConditionOp, text: string): unknown {
  return op === "in"
    ? text
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean)
    : text.trim();
}

/** A condition's value as the form shows it. */
export function conditionText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(", ") : value === undefined || value === null ? "" : String(value);
}

/** The webhook sinks (the only provider a rule may send to), by id. */
export async function webhookSinks(): Promise<Map<number, string>> {
  const page = await ok(api.GET("/api/v1/notifications/sinks", { params: { query: { provider_type: "webhook", limit: "100" } } }));
  return new Map(page.items.map((s) => [s.id, s.name]));
}
