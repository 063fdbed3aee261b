// The threshold alert rules (/alert-rules): each rule's condition in one line, severity, scope, whether it
// is enabled and on how many nodes it fires now (the list's firing_count), "New rule" for a role with
// write:monitors.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { say } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { RuleScope } from "./rule-scope.tsx";
import { conditionText } from "./rule-text.ts";

const PAGE = 100;

export function RulesPage() {
  const t = useT();
  const canWrite = useSession().can("write:monitors");
  const [offset, setOffset] = useState(0);
  const page = useLoad(
    () => ok(api.GET("/api/v1/alert-rules", { params: { query: { limit: String(PAGE), offset: String(offset), sort: "name" } } })),
    [offset],
  );
  return (
    <section aria-labelledby="rules-title">
      <header class="page-head">
        <h1 id="rules-title">{t("alert-rules:title")}</h1>
        {canWrite && (
          <div class="actions">
            <Link href="/alert-rules/new" class="button primary">
              {t("alert-rules:new")}
            </Link>
          </div>
        )}
      </header>
      <p class="meta">{t("alert-rules:intro")}</p>
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>{t("alert-rules:caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("alert-rules:col.name")}</th>
              <th scope="col">{t("alert-rules:col.condition")}</th>
              <th scope="col">{t("alert-rules:col.severity")}</th>
              <th scope="col">{t("alert-rules:col.appliesTo")}</th>
              <th scope="col">{t("alert-rules:col.enabled")}</th>
              <th scope="col">{t("alert-rules:col.firingOn")}</th>
            </tr>
          </thead>
          <tbody>
            {(page.data?.items ?? []).map((r) => (
              <tr key={r.id} data-rule={r.id}>
                <td data-label={t("alert-rules:col.name")}>
                  <Link href={`/alert-rules/${r.id}`}>{r.name}</Link>
                </td>
                <td data-label={t("alert-rules:col.condition")}>
                  <code>{conditionText(say, r)}</code>
                </td>
                <td data-label={t("alert-rules:col.severity")}>{r.severity}</td>
                <td data-label={t("alert-rules:col.appliesTo")}>
                  <RuleScope rule={r} />
                </td>
                <td data-label={t("alert-rules:col.enabled")}>{r.enabled ? t("alert-rules:yes") : <Status value="paused" />}</td>
                <td data-label={t("alert-rules:col.firingOn")}>
                  {r.firing_count === 0 ? "—" : t("alert-rules:nodes", { count: r.firing_count })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.data && page.data.items.length === 0 && (
          <p class="empty">{canWrite ? t("alert-rules:empty") : t("alert-rules:emptyReadOnly")}</p>
        )}
      </div>
      {page.data && <Pager offset={offset} limit={PAGE} total={page.data.total} onOffset={setOffset} label={t("alert-rules:pages")} />}
    </section>
  );
}
