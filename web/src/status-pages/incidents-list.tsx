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
import { AffectedField, affectedError, affectedOf, type Impact, ImpactField } from "./incident-fields.tsx";
import type { StatusPage } from "./page-draft.ts";
import { PageTabs } from "./page-tabs.tsx";
import { RelativeTime } from "../components/time.tsx";

const PAGE = 50;
type State = "" | "draft" | "open" | "resolved";
const STATES: { value: State; label: string }[] = [
  { value: "", label: "All" },
  { value: "draft", label: "Drafts" },
  { value: "open", label: "Open" },
  { value: "resolved", label: "Resolved" },
];

export function IncidentsList({ pageId }: { pageId: string }) {
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
  if (!page.data) return <p aria-busy="true">Loading…</p>;
  const p = page.data;
  return (
    <section aria-labelledby="incidents-title" class="status-incidents">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/status-pages">Status pages</Link> / <Link href={`/status-pages/${p.id}`}>{p.title}</Link>
          </p>
          <h1 id="incidents-title">Incidents of {p.title}</h1>
        </div>
        {canWrite && !creating && (
          <div class="actions">
            <button type="button" class="primary" onClick={() => setCreating(true)}>
              New incident
            </button>
          </div>
        )}
      </header>
      <PageTabs id={String(p.id)} current="incidents" />
      {!canWrite && <Notice kind="info">Your role can read incidents but not change them (write:status_pages).</Notice>}
      {creating && <NewIncident page={p} onCancel={() => setCreating(false)} />}
      <div class="toolbar">
        <ChoiceFilter
          label="Show"
          value={state}
          choices={STATES}
          onValue={(v) => {
            setOffset(0);
            setState(v);
          }}
        />
      </div>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>Incidents</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">State</th>
              <th scope="col">Status</th>
              <th scope="col">Impact</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((i) => (
              <tr key={i.id} data-incident={i.id}>
                <td data-label="Title">
                  <Link href={`/status-pages/${p.id}/incidents/${i.id}`}>{i.title}</Link>
                </td>
                <td data-label="State">
                  <span class="badge">{i.published ? "published" : "draft"}</span>
                </td>
                <td data-label="Status">{i.status}</td>
                <td data-label="Impact">{i.impact}</td>
                <td data-label="Started">
                  <RelativeTime at={i.published_at ?? i.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && list.data.items.length === 0 && <p class="empty">No incidents{state ? " in this state" : ""}.</p>}
      </div>
      {list.data && <Pager offset={offset} limit={PAGE} total={list.data.total} onOffset={setOffset} label="Incidents" />}
    </section>
  );
}

function NewIncident({ page, onCancel }: { page: StatusPage; onCancel: () => void }) {
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
      <h2 id="new-incident-title">New incident</h2>
      <TextInput id="incident-title" label="Title" value={title} error={f.title} onValue={setTitle} />
      <ImpactField id="incident-impact" value={impact} error={f.impact} onValue={setImpact} />
      <AffectedField page={page} chosen={chosen} error={affectedError(f)} onChosen={setChosen} />
      <Field id="incident-body" label="First update" hint="Markdown: shown to the public once published" error={f.body}>
        {(a11y) => <textarea {...a11y} rows={4} value={body} onInput={(e) => setBody((e.currentTarget as HTMLTextAreaElement).value)} />}
      </Field>
      <label class="check row">
        <input type="checkbox" checked={publish} onChange={() => setPublish(!publish)} /> Publish now (otherwise a draft, never public)
      </label>
      <Notice kind="error">{submit.error}</Notice>
      <div class="actions">
        <button type="submit" class="primary" disabled={submit.busy}>
          Create incident
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
