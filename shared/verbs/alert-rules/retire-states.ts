// A rule changed in what it judges (condition, scope, enabled) or deleted: its nodes' states go, and each
// node it left firing gets its `metric.cleared` saying why, so the incident the firing opened is resolved
// (a paging service is not left with an alert nobody will ever clear). docs/adr/0451.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import type { VerbScope } from "../verb.ts";
import { compileRule, type RuleRow } from "./compiled-rules.ts";
import { type RetiredBy, raiseRuleAlert } from "./rule-alerts.ts";

const WORDS: Record<RetiredBy, string> = { rule_changed: "was changed", rule_deleted: "was deleted" };

/** Deletes the rule's states (as `before` judged them) and clears its firing nodes; answers how many. */
export async function retireStates(s: VerbScope, before: RuleRow, reason: RetiredBy): Promise<number> {
  const rows = await queryRows<{ hardware_id: number; state: string; name: string | null }>(
    s.tx,
    sql`with gone as (delete from alert_rule_states where rule_id = ${before.id} returning hardware_id, state)
      select g.hardware_id, g.state, h.name from gone g left join hardware h on h.id = g.hardware_id order by g.hardware_id`,
  );
  const rule = compileRule(before);
  if (!rule) return 0;
  const firing = rows.filter((r) => r.state === "firing");
  for (const r of firing)
    await raiseRuleAlert(s, {
      rule,
      node: { id: r.hardware_id, name: r.name ?? `hardware ${r.hardware_id}` },
      firing: false,
      value: null,
      at: s.now,
      reason,
      title: `${rule.name} cleared on ${r.name ?? `hardware ${r.hardware_id}`}: the rule ${WORDS[reason]}`,
      body: `The rule ${WORDS[reason]}, so it no longer judges ${rule.metric} here as it did when it fired; this ends that alert.${reason === "rule_changed" ? " The changed rule judges the node afresh from its next samples and fires again if the condition holds." : ""}`,
    });
  return firing.length;
}
