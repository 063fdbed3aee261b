// One incident of a status page (/status-pages/<id>/incidents/<incident_id>): its timeline (each update's
// status, time and the sanitised HTML the public sees), and to a role with write:status_pages a form to
// add an update (a status and Markdown), Publish for a draft, the title, impact and affected items to
// edit, and Delete (confirmed). Every write sends If-Match (the version loaded): an incident changed
// meanwhile is a 412 shown with "Load their version", never overwritten. A 422 is shown at its field.
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { type Submit, useSubmit } from "../auth/use-submit.ts";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { Link, navigate } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { WRITE_STATUS_PAGES } from "../../../shared/verbs/status-pages/scopes.ts";
import {
  AffectedField,
  affectedError,
  affectedOf,
  IMPACT_LABEL,
  type Impact,
  ImpactField,
  type Incident,
  type IncidentStatus,
  ifMatch,
  refKey,
  STATUS_LABEL,
  STATUSES,
} from "./incident-fields.tsx";
import { PageTabs } from "./page-tabs.tsx";
import { RelativeTime } from "../components/time.tsx";
import { useT } from "../i18n/use-t.ts";

export function IncidentDetail({ pageId, id }: { pageId: string; id: string }) {
  const t = useT();
  const canWrite = useSession().can(WRITE_STATUS_PAGES);
  const path = { page_id: pageId, incident_id: id };
  const page = useLoad(() => ok(api.GET("/api/v1/status-pages/{page_id}", { params: { path: { page_id: pageId } } })), [pageId]);
  const loaded = useLoad(() => ok(api.GET("/api/v1/status-pages/{page_id}/incidents/{incident_id}", { params: { path } })), [pageId, id]);
  // The incident as last loaded or written: its version is what the next write's If-Match sends.
  const [incident, setIncident] = useState<Incident | undefined>();
  const [conflict, setConflict] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [title, setTitle] = useState("");
  const [impact, setImpact] = useState<Impact>("minor");
  const [chosen, setChosen] = useState<string[]>([]);
  const [status, setStatus] = useState<IncidentStatus>("investigating");
  const [body, setBody] = useState("");
  const [saved, setSaved] = useState("");
  // A (re)load answers the last write's error: the forms' errors are hidden until the next write.
  const [fresh, setFresh] = useState(true);
  const edit = useSubmit();
  const update = useSubmit();
  const publish = useSubmit();

  const show = (i: Incident) => {
    setIncident(i);
    setTitle(i.title);
    setImpact(i.impact);
    setChosen(i.affected.map(refKey));
    setStatus(i.status);
  };
  useEffect(() => {
    if (!loaded.data) return;
    show(loaded.data);
    setConflict(false);
    setFresh(true);
  }, [loaded.data]);

  /** Runs a write with the loaded version; its answer (the incident with its timeline) is shown. */
  const write = (submit: Submit, done: string, call: (headers: Record<string, string>) => Promise<unknown>) =>
    submit.run(async () => {
      setConflict(false);
      setFresh(false);
      setSaved("");
      try {
        show((await call(ifMatch(incident))) as Incident);
        setSaved(done);
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 412) setConflict(true);
        throw err;
      }
    });

  if ((loaded.error !== undefined && !loaded.data) || (page.error !== undefined && !page.data))
    return <Notice kind="error">{messageOf(loaded.error ?? page.error)}</Notice>;
  if (!incident || !page.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const p = page.data;
  const resolved = incident.status === "resolved";

  const onEdit = (e: Event) => {
    e.preventDefault();
    void write(edit, t("status-pages:saved"), (headers) =>
      ok(
        api.PATCH("/api/v1/status-pages/{page_id}/incidents/{incident_id}", {
          params: { path },
          headers,
          body: { title, impact, affected: affectedOf(p, chosen) },
        }),
      ),
    );
  };
  const onUpdate = (e: Event) => {
    e.preventDefault();
    void write(update, t("status-pages:incident.updateAdded"), async (headers) => {
      const answer = await ok(
        api.POST("/api/v1/status-pages/{page_id}/incidents/{incident_id}/updates", { params: { path }, headers, body: { status, body } }),
      );
      setBody("");
      return answer;
    });
  };
  const onPublish = () =>
    void write(publish, t("status-pages:incident.publishedNotice"), (headers) =>
      ok(api.POST("/api/v1/status-pages/{page_id}/incidents/{incident_id}/publish", { params: { path }, headers })),
    );
  const remove = async () => {
    await ok(api.DELETE("/api/v1/status-pages/{page_id}/incidents/{incident_id}", { params: { path }, headers: ifMatch(incident) }));
    navigate(`/status-pages/${p.id}/incidents`);
  };
  const error = conflict ? t("status-pages:incident.changed") : fresh ? undefined : (publish.error ?? edit.error ?? update.error);

  return (
    <section aria-labelledby="incident-title-heading" class="form-page status-incident">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/status-pages">{t("status-pages:title")}</Link> /{" "}
            <Link href={`/status-pages/${p.id}/incidents`}>{t("status-pages:incidents.of", { title: p.title })}</Link>
          </p>
          <h1 id="incident-title-heading">{incident.title}</h1>
          <p class="meta">
            <span class="badge">
              {incident.published ? t("status-pages:incident.published") : t("status-pages:incident.draftNotPublic")}
            </span>{" "}
            {t("status-pages:incident.summary", { status: t(STATUS_LABEL[incident.status]), impact: t(IMPACT_LABEL[incident.impact]) })}
            {incident.source === "automatic" ? t("status-pages:incident.automatic") : ""}
          </p>
        </div>
        {canWrite && (
          <div class="actions">
            {!incident.published && (
              <button type="button" class="primary" disabled={publish.busy} onClick={onPublish}>
                {t("status-pages:incident.publish")}
              </button>
            )}
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              {t("status-pages:deleteAsk")}
            </button>
          </div>
        )}
      </header>
      <PageTabs id={String(p.id)} current="incidents" />
      {deleting && (
        <DeleteDialog name={incident.title} button={t("status-pages:incident.delete")} remove={remove} onClose={() => setDeleting(false)}>
          {t("status-pages:incident.deleteText")}
        </DeleteDialog>
      )}
      {!canWrite && <Notice kind="info">{t("status-pages:incidents.readOnly")}</Notice>}
      {error && (
        <p class="notice notice-error" role="alert">
          {error}{" "}
          {conflict && (
            <button type="button" onClick={() => loaded.reload()}>
              {t("common:save.loadTheirs")}
            </button>
          )}
        </p>
      )}
      {saved && <Notice kind="success">{saved}</Notice>}

      <h2>{t("status-pages:incident.timeline")}</h2>
      <ol class="incident-timeline">
        {incident.updates.map((u) => (
          <li key={u.id} class="card" data-update={u.id}>
            <p class="meta">
              <strong>{t(STATUS_LABEL[u.status])}</strong> <RelativeTime at={u.created_at} />
            </p>
            {/* The API's `html` is the update's Markdown rendered without raw HTML and sanitised on the server
                (docs/status-pages.md: no scripts, handlers, styles, images or other link schemes), the same the
                public page shows; only that field is ever set as HTML here. */}
            <div class="incident-body" dangerouslySetInnerHTML={{ __html: u.html }} />
          </li>
        ))}
      </ol>

      {canWrite && (
        <form class="card" aria-labelledby="add-update-title" onSubmit={onUpdate} noValidate>
          <h2 id="add-update-title">{t("status-pages:incident.addTitle")}</h2>
          <Field id="update-status" label={t("status-pages:incidents.status")} error={update.fields.status}>
            {(a11y) => (
              <select {...a11y} value={status} onChange={(e) => setStatus((e.currentTarget as HTMLSelectElement).value as IncidentStatus)}>
                {STATUSES.filter((s) => !resolved || s === "resolved").map((s) => (
                  <option key={s} value={s}>
                    {t(STATUS_LABEL[s])}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="update-body"
            label={t("status-pages:incident.update")}
            hint={t("status-pages:incident.markdown")}
            error={update.fields.body}
          >
            {(a11y) => (
              <textarea {...a11y} rows={4} value={body} onInput={(e) => setBody((e.currentTarget as HTMLTextAreaElement).value)} />
            )}
          </Field>
          <div class="actions">
            <button type="submit" class="primary" disabled={update.busy}>
              {t("status-pages:incident.add")}
            </button>
          </div>
        </form>
      )}

      <form class="card" aria-labelledby="edit-incident-title" onSubmit={onEdit} noValidate>
        <h2 id="edit-incident-title">{t("status-pages:incident.title")}</h2>
        <fieldset class="plain" disabled={!canWrite}>
          <TextInput id="incident-title" label={t("status-pages:col.title")} value={title} error={edit.fields.title} onValue={setTitle} />
          <ImpactField id="incident-impact" value={impact} error={edit.fields.impact} onValue={setImpact} />
          <AffectedField page={p} chosen={chosen} error={affectedError(edit.fields)} onChosen={setChosen} />
        </fieldset>
        {canWrite && (
          <div class="actions">
            <button type="submit" class="primary" disabled={edit.busy}>
              {t("status-pages:saveChanges")}
            </button>
          </div>
        )}
      </form>
    </section>
  );
}
