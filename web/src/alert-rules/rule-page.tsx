// One alert rule's page (/alert-rules/<id>): its condition and fields, and where it stands on each node
// (GET /alert-rules/<id>/state: ok, pending or firing, since when, the value judged then). Edit for a role
// with write:monitors, Delete (in a dialog) with delete:monitors.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { say } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { DeleteRuleDialog } from "./delete-rule-dialog.tsx";
import { RuleScope } from "./rule-scope.tsx";
import { conditionText, duration } from "./rule-text.ts";
import { RelativeTime } from "../components/time.tsx";

export function RulePage({ id }: { id: string }) {
  const t = useT();
  const session = useSession();
  const path = { rule_id: id };
  const rule = useLoad(() => ok(api.GET("/api/v1/alert-rules/{rule_id}", { params: { path } })), [id]);
  const state = useLoad(() => ok(api.GET("/api/v1/alert-rules/{rule_id}/state", { params: { path } })), [id]);
  const [deleting, setDeleting] = useState(false);

  if (rule.error !== undefined && !rule.data) return <Notice kind="error">{messageOf(rule.error)}</Notice>;
  const r = rule.data;
  if (!r) return <p aria-busy="true">{t("common:loading")}</p>;
  const nodes = state.data?.items ?? [];
  return (
    <article aria-labelledby="rule-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/alert-rules">{t("alert-rules:title")}</Link>
          </p>
          <h1 id="rule-title">
            {r.name} {!r.enabled && <Status value="paused" />}
          </h1>
        </div>
        <div class="actions">
          {session.can("write:monitors") && (
            <Link href={`/alert-rules/${r.id}/edit`} class="button">
              {t("alert-rules:edit")}
            </Link>
          )}
          {session.can("delete:monitors") && (
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              {t("alert-rules:deleteOpen")}
            </button>
          )}
        </div>
      </header>
      {deleting && <DeleteRuleDialog rule={r} onClose={() => setDeleting(false)} />}
      {r.description && <p>{r.description}</p>}
      <dl class="fields">
        <dt>{t("alert-rules:col.condition")}</dt>
        <dd>
          <code>{conditionText(say, r)}</code>
        </dd>
        <dt>{t("alert-rules:page.metric")}</dt>
        <dd>{r.metric}</dd>
        <dt>{t("alert-rules:page.compare")}</dt>
        <dd>
          {r.aggregation === "last"
            ? t("alert-rules:page.eachSample")
            : t("alert-rules:page.over", { aggregation: r.aggregation, window: duration(r.window_secs) })}
        </dd>
        <dt>{t("alert-rules:page.fires")}</dt>
        <dd>
          {r.operator === ">" ? t("alert-rules:page.above", { value: r.threshold }) : t("alert-rules:page.below", { value: r.threshold })}
          {r.for_secs > 0 ? t("alert-rules:page.heldFor", { duration: duration(r.for_secs) }) : t("alert-rules:page.atOnce")}
        </dd>
        <dt>{t("alert-rules:page.clears")}</dt>
        <dd>
          {r.operator === ">"
            ? t("alert-rules:page.below", { value: r.clear_threshold })
            : t("alert-rules:page.above", { value: r.clear_threshold })}
        </dd>
        <dt>{t("alert-rules:col.severity")}</dt>
        <dd>{r.severity}</dd>
        <dt>{t("alert-rules:col.appliesTo")}</dt>
        <dd>
          <RuleScope rule={r} />
        </dd>
        <dt>{t("alert-rules:col.enabled")}</dt>
        <dd>{r.enabled ? t("alert-rules:yes") : t("alert-rules:page.notJudged")}</dd>
      </dl>
      <section aria-labelledby="rule-state-title">
        <h2 id="rule-state-title">{t("alert-rules:page.statePerNode")}</h2>
        {state.error !== undefined && <Notice kind="error">{messageOf(state.error)}</Notice>}
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("alert-rules:page.node")}</th>
                <th scope="col">{t("alert-rules:page.state")}</th>
                <th scope="col">{t("alert-rules:page.since")}</th>
                <th scope="col">{t("alert-rules:page.lastValue")}</th>
              </tr>
            </thead>
            <tbody>
              {nodes.map((n) => (
                <tr key={n.hardware_id}>
                  <td data-label={t("alert-rules:page.node")}>
                    <Link href={`/inventory/hardware/${n.hardware_id}`}>
                      {n.hardware_name ?? t("alert-rules:nodeN", { id: n.hardware_id })}
                    </Link>
                  </td>
                  <td data-label={t("alert-rules:page.state")}>
                    <Status value={n.state} />
                  </td>
                  <td data-label={t("alert-rules:page.since")}>
                    <RelativeTime at={n.state === "firing" ? n.firing_since : n.state === "pending" ? n.pending_since : n.changed_at} />
                  </td>
                  <td data-label={t("alert-rules:page.lastValue")}>{n.last_value ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {state.data && nodes.length === 0 && <p class="empty">{t("alert-rules:page.allOk")}</p>}
        </div>
      </section>
    </article>
  );
}
