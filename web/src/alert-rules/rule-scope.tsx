// Where a rule applies, in words, with the node or site as a link to its screen.
import type { paths } from "../api/client.ts";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { TargetLink, useTargetName } from "../monitoring/target-link.tsx";

type Rule = paths["/api/v1/alert-rules/{rule_id}"]["get"]["responses"][200]["content"]["application/json"];

export function RuleScope({ rule }: { rule: Pick<Rule, "scope_kind" | "scope_node_id" | "scope_tag" | "scope_site_id"> }) {
  const t = useT();
  const node = useTargetName(rule.scope_kind === "node" ? "hardware" : null, rule.scope_node_id);
  if (rule.scope_kind === "node" && rule.scope_node_id != null) return <TargetLink type="hardware" id={rule.scope_node_id} name={node} />;
  if (rule.scope_kind === "tag") return <span>{t("alert-rules:scope.tag", { tag: rule.scope_tag })}</span>;
  if (rule.scope_kind === "site" && rule.scope_site_id != null)
    return <Link href={`/inventory/sites/${rule.scope_site_id}`}>{t("alert-rules:scope.site", { id: rule.scope_site_id })}</Link>;
  return <span>{t("alert-rules:scope.all")}</span>;
}
