// An event rule's filters in one line: its tag, its site (by name, linking to it) and its condition;
// "every change" when it has none.
import { useT } from "../i18n/use-t.ts";
import { RefLink, useNames } from "../inventory/names.tsx";
import type { Rule } from "./rule-text.ts";
import { conditionText } from "./rule-text.ts";

export function RuleFilters({ rule }: { rule: Pick<Rule, "tag" | "site_id" | "condition"> }) {
  const t = useT();
  const nameOf = useNames(rule.site_id === null ? [] : [{ group: "sites", id: rule.site_id }]);
  const parts = [
    rule.tag !== null && <span key="tag">{t("event-rules:filter.tag", { tag: rule.tag })}</span>,
    rule.site_id !== null && (
      <span key="site">
        {t("event-rules:filter.site")} <RefLink group="sites" id={rule.site_id} name={nameOf("sites", rule.site_id)} />
      </span>
    ),
    rule.condition !== null && (
      <code key="condition">
        {rule.condition.field} {rule.condition.op} {conditionText(rule.condition.value)}
      </code>
    ),
  ].filter(Boolean);
  if (parts.length === 0) return <>{t("event-rules:filter.none")}</>;
  return (
    <>
      {parts.map((p, i) => (
        <span key={i}>
          {i > 0 && "; "}
          {p}
        </span>
      ))}
    </>
  );
}
