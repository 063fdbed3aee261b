// The inventory event rules (/event-rules, docs/event-rules.md): each rule's kinds, actions, filters,
// webhook sinks and whether it is enabled; "New rule" and the rule pages. Administrators only
// (admin:notifications, like the sinks).
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Status } from "../components/status.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { RuleFilters } from "./rule-filters.tsx";
import { EVENT_RULES_SCOPE, webhookSinks } from "./rule-text.ts";

const PAGE = 100;

export function EventRulesPage() {
  const t = useT();
  const allowed = useSession().can(EVENT_RULES_SCOPE);
  const [offset, setOffset] = useState(0);
  const page = useLoad(async () => {
    if (!allowed) return undefined;
    const [rules, sinks] = await Promise.all([
      ok(api.GET("/api/v1/event-rules", { params: { query: { limit: String(PAGE), offset: String(offset), sort: "name" } } })),
      webhookSinks(),
    ]);
    return { rules, sinks };
  }, [offset, allowed]);
  if (!allowed) return <Notice kind="info">{t("event-rules:noScope")}</Notice>;
  const data = page.data;
  return (
    <section aria-labelledby="event-rules-title">
      <header class="page-head">
        <h1 id="event-rules-title">{t("event-rules:title")}</h1>
        <div class="actions">
          <Link href="/event-rules/new" class="button primary">
            {t("event-rules:new")}
          </Link>
        </div>
      </header>
      <p class="meta">{t("event-rules:intro")}</p>
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t("event-rules:title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("event-rules:field.name")}</th>
              <th scope="col">{t("event-rules:field.kinds")}</th>
              <th scope="col">{t("event-rules:field.actions")}</th>
              <th scope="col">{t("event-rules:field.filters")}</th>
              <th scope="col">{t("event-rules:field.sinks")}</th>
              <th scope="col">{t("event-rules:field.enabled")}</th>
            </tr>
          </thead>
          <tbody>
            {(data?.rules.items ?? []).map((r) => (
              <tr key={r.id} data-rule={r.id}>
                <td data-label={t("event-rules:field.name")}>
                  <Link href={`/event-rules/${r.id}`}>{r.name}</Link>
                </td>
                <td data-label={t("event-rules:field.kinds")}>{r.kinds.join(", ")}</td>
                <td data-label={t("event-rules:field.actions")}>{r.actions.join(", ")}</td>
                <td data-label={t("event-rules:field.filters")}>
                  <RuleFilters rule={r} />
                </td>
                <td data-label={t("event-rules:field.sinks")}>{r.sink_ids.map((id) => data?.sinks.get(id) ?? `#${id}`).join(", ")}</td>
                <td data-label={t("event-rules:field.enabled")}>{r.enabled ? t("event-rules:yes") : <Status value="paused" />}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.rules.items.length === 0 && <p class="empty">{t("event-rules:empty")}</p>}
      </div>
      {data && <Pager offset={offset} limit={PAGE} total={data.rules.total} onOffset={setOffset} label={t("event-rules:pages")} />}
    </section>
  );
}
