// A status page's incidents (/status-pages/<id>/incidents): the list filtered by state (draft, open,
// resolved), each to its detail, and to a role with write:status_pages a "New incident" form: title,
// impact, the affected items chosen among the page's own, the first update's Markdown and "publish now".
// A 422 is shown at its field; the new incident's detail opens once created.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { ChoiceFilter } from "../components/choice-filter.tsx";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Link, navigate } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { WRITE_STATUS_PAGES } from "../../../shared/verbs/status-pages/scopes.ts";
import { AffectedField, affectedError, affectedOf, IMPACT_LABEL, type Impact, ImpactField, STATUS_LABEL } from "./incident-fields.tsx";
import type { StatusPage } from "./page-draft.ts";
import { PageTabs } from "./page-tabs.tsx";
import { RelativeTime } from "../components/time.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const PAGE = 50;
type State = "" | "draft" | "open" | "resolved";
const STATES: { value: State; label: string }[] = [
  { value: "", label: i18nKey("status-pages:filter.all") },
  { value: "draft", label: i18nKey("status-pages:filter.drafts") },
  { value: "open", label: i18nKey("status-pages:filter.open") },
  { value: "resolved", label: i18nKey("status-pages:filter.resolved") },
];

export function IncidentsList({ pageId }: { pageId: string }) {
  const t = useT();
  const canWrite = useSession().can(WRITE_STATUS_PAGES);
  const [state, setState] = useState<State>("");
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const page = useLoad(() => ok(api.GET("/api/v1/status-pages/{page_id}", { params: { path: { page_id: pageId } } })), [pageId]);
  const list = useLoad(
    () =>
      ok(
        api.GET("/api/v1/status-pages/{page_id}/incidents", {
          params: {
            path: { page_id: pageId },
            query: { limit: String(PAGE), offset: String(offset), sort: "created_at", direction: "desc", ...(state ? { state } : {}) },
          },
        }),
      ),
    [pageId, state, offset],
  );
  if (page.error !== undefined && !page.data) return <Notice kind="error">{messageOf(page.error)}</Notice>;
  if (!page.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const p = page.data;
  return (
    <section aria-labelledby="incidents-title" class="status-incidents">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/status-pages">{t("status-pages:title")}</Link> / <Link href={`/status-pages/${p.id}`}>{p.title}</Link>
          </p>
          <h1 id="incidents-title">{t("status-pages:incidents.of", { title: p.title })}</h1>
        </div>
        {canWrite && !creating && (
          <div class="actions">
            <button type="button" class="primary" onClick={() => setCreating(true)}>
              {t("status-pages:incidents.new")}
            </button>
          </div>
        )}
      </header>
      <PageTabs id={String(p.id)} current="incidents" />
      {!canWrite && <Notice kind="info">{t("status-pages:incidents.readOnly")}</Notice>}
      {creating && <NewIncident page={p} onCancel={() => setCreating(false)} />}
      <div class="toolbar">
        <ChoiceFilter
          label={t("status-pages:filter.show")}
          value={state}
          choices={STATES.map((c) => ({ ...c, label: t(c.label) }))}
          onValue={(v) => {
            setOffset(0);
            setState(v);
          }}
        />
      </div>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>{t("status-pages:tabs.incidents")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("status-pages:col.title")}</th>
              <th scope="col">{t("status-pages:col.state")}</th>
              <th scope="col">{t("status-pages:incidents.status")}</th>
              <th scope="col">{t("status-pages:incident.impact")}</th>
              <th scope="col">{t("status-pages:incidents.started")}</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((i) => (
              <tr key={i.id} data-incident={i.id}>
                <td data-label={t("status-pages:col.title")}>
                  <Link href={`/status-pages/${p.id}/incidents/${i.id}`}>{i.title}</Link>
                </td>
                <td data-label={t("status-pages:col.state")}>
                  <span class="badge">{i.published ? t("status-pages:incident.published") : t("status-pages:draft")}</span>
                </td>
                <td data-label={t("status-pages:incidents.status")}>{t(STATUS_LABEL[i.status])}</td>
                <td data-label={t("status-pages:incident.impact")}>{t(IMPACT_LABEL[i.impact])}</td>
                <td data-label={t("status-pages:incidents.started")}>
                  <RelativeTime at={i.published_at ?? i.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && list.data.items.length === 0 && (
          <p class="empty">{state ? t("status-pages:incidents.noneInState") : t("status-pages:incidents.none")}</p>
        )}
      </div>
      {list.data && (
        <Pager offset={offset} limit={PAGE} total={list.data.total} onOffset={setOffset} label={t("status-pages:tabs.incidents")} />
      )}
    </section>
  );
}

function NewIncident({ page, onCancel }: { page: StatusPage; onCancel: () => void }) {
  const t = useT();
  const [title, setTitle] = useState("");
  const [impact, setImpact] = useState<Impact>("minor");
  const [chosen, setChosen] = useState<string[]>([]);
  const [body, setBody] = useState("");
  const [publish, setPublish] = useState(false);
  const submit = useSubmit();
  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const created = await ok(
        api.POST("/api/v1/status-pages/{page_id}/incidents", {
          params: { path: { page_id: String(page.id) } },
          body: { title, impact, affected: affectedOf(page, chosen), body, publish },
        }),
      );
      navigate(`/status-pages/${page.id}/incidents/${created.id}`);
    });
  };
  const f = submit.fields;
  return (
    <form class="card" aria-labelledby="new-incident-title" onSubmit={send} noValidate>
      <h2 id="new-incident-title">{t("status-pages:incidents.new")}</h2>
      <TextInput id="incident-title" label={t("status-pages:col.title")} value={title} error={f.title} onValue={setTitle} />
      <ImpactField id="incident-impact" value={impact} error={f.impact} onValue={setImpact} />
      <AffectedField page={page} chosen={chosen} error={affectedError(f)} onChosen={setChosen} />
      <Field
        id="incident-body"
        label={t("status-pages:incidents.firstUpdate")}
        hint={t("status-pages:incidents.firstUpdateHint")}
        error={f.body}
      >
        {(a11y) => <textarea {...a11y} rows={4} value={body} onInput={(e) => setBody((e.currentTarget as HTMLTextAreaElement).value)} />}
      </Field>
      <label class="check row">
        <input type="checkbox" checked={publish} onChange={() => setPublish(!publish)} /> {t("status-pages:incidents.publishNow")}
      </label>
      <Notice kind="error">{submit.error}</Notice>
      <div class="actions">
        <button type="submit" class="primary" disabled={submit.busy}>
          {t("status-pages:incidents.create")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common:cancel")}
        </button>
      </div>
    </form>
  );
}
