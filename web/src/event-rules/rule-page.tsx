// One event rule (/event-rules/:id): what it sends and where, edit and delete (If-Match), and its
// deliveries (GET /event-rules/deliveries?rule_id=, newest first) with each one's state, attempts and last
// error; a delivered or dead one can be replayed with a fresh attempt budget.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link, navigate } from "../router.tsx";
import { DeliveryProgress, ReplayButton } from "../settings/deliveries.tsx";
import { Table } from "../settings/table.tsx";
import { useLoad } from "../use-load.ts";
import { RuleFilters } from "./rule-filters.tsx";
import { EVENT_RULES_SCOPE, webhookSinks } from "./rule-text.ts";

const SHOWN = 50;

function RuleDeliveries({ ruleId }: { ruleId: string }) {
  const t = useT();
  const list = useLoad(
    () =>
      ok(
        api.GET("/api/v1/event-rules/deliveries", {
          params: { query: { rule_id: ruleId, limit: String(SHOWN), sort: "created_at", direction: "desc" } },
        }),
      ),
    [ruleId],
  );
  const replay = useSubmit();
  return (
    <section aria-labelledby="rule-deliveries-title">
      <div class="page-head">
        <h2 id="rule-deliveries-title">{t("event-rules:deliveries.title")}</h2>
        <button type="button" onClick={() => list.reload()}>
          {t("event-rules:deliveries.refresh")}
        </button>
      </div>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <Notice kind="error">{replay.error}</Notice>
      {list.data?.items.length === 0 && <p class="empty">{t("event-rules:deliveries.none")}</p>}
      {list.data && list.data.items.length > 0 && (
        <Table
          caption={t("event-rules:deliveries.title")}
          columns={[
            t("event-rules:deliveries.event"),
            t("event-rules:deliveries.sink"),
            t("event-rules:deliveries.state"),
            t("settings:deliveries.attempts"),
            t("settings:deliveries.lastError"),
            t("settings:deliveries.created"),
          ]}
          actions
        >
          {list.data.items.map((d) => (
            <tr key={d.id} data-delivery={d.id}>
              <td data-label={t("event-rules:deliveries.event")}>
                <code>{[d.event.event, d.event.kind, d.event.id].map((v) => String(v ?? "")).join(" ")}</code>
              </td>
              <td data-label={t("event-rules:deliveries.sink")}>{d.sink_name ?? `#${d.sink_id}`}</td>
              <td data-label={t("event-rules:deliveries.state")}>
                <Status value={d.state} />
              </td>
              <DeliveryProgress delivery={d} />
              <td>
                <ReplayButton
                  state={d.state}
                  submit={replay}
                  replay={async () => {
                    await ok(
                      api.POST("/api/v1/event-rules/deliveries/{delivery_id}/replay", { params: { path: { delivery_id: String(d.id) } } }),
                    );
                    list.reload();
                  }}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

export function EventRulePage({ id }: { id: string }) {
  const t = useT();
  const allowed = useSession().can(EVENT_RULES_SCOPE);
  const [error, setError] = useState<string | undefined>();
  const rule = useLoad(async () => {
    if (!allowed) return undefined;
    const [r, sinks] = await Promise.all([
      ok(api.GET("/api/v1/event-rules/{event_rule_id}", { params: { path: { event_rule_id: id } } })),
      webhookSinks(),
    ]);
    return { r, sinks };
  }, [id, allowed]);
  if (!allowed) return <Notice kind="info">{t("event-rules:noScope")}</Notice>;
  if (rule.error !== undefined) return <Notice kind="error">{messageOf(rule.error)}</Notice>;
  if (!rule.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const { r, sinks } = rule.data;
  const remove = async () => {
    if (!confirm(t("event-rules:confirmDelete", { name: r.name }))) return;
    setError(undefined);
    try {
      await ok(
        api.DELETE("/api/v1/event-rules/{event_rule_id}", {
          params: { path: { event_rule_id: id } },
          headers: { "If-Match": `"${r.version}"` },
        }),
      );
      navigate("/event-rules");
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <article aria-labelledby="event-rule-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/event-rules">{t("event-rules:title")}</Link>
          </p>
          <h1 id="event-rule-title">{r.name}</h1>
        </div>
        <div class="actions">
          <Link class="button primary" href={`/event-rules/${id}/edit`}>
            {t("event-rules:edit")}
          </Link>
          <button type="button" class="danger" onClick={() => void remove()}>
            {t("event-rules:delete")}
          </button>
        </div>
      </header>
      <Notice kind="error">{error}</Notice>
      <dl class="fields">
        <div>
          <dt>{t("event-rules:field.kinds")}</dt>
          <dd>{r.kinds.join(", ")}</dd>
        </div>
        <div>
          <dt>{t("event-rules:field.actions")}</dt>
          <dd>{r.actions.join(", ")}</dd>
        </div>
        <div>
          <dt>{t("event-rules:field.filters")}</dt>
          <dd>
            <RuleFilters rule={r} />
          </dd>
        </div>
        <div>
          <dt>{t("event-rules:field.sinks")}</dt>
          <dd>{r.sink_ids.map((s) => sinks.get(s) ?? `#${s}`).join(", ")}</dd>
        </div>
        <div>
          <dt>{t("event-rules:field.enabled")}</dt>
          <dd>{r.enabled ? t("event-rules:yes") : <Status value="paused" />}</dd>
        </div>
      </dl>
      <RuleDeliveries ruleId={id} />
    </article>
  );
}
