// Create and edit a status page (/status-pages/new, /status-pages/<id>): its fields (docs/status-pages.md),
// its sections and items (sections-editor.tsx), the preview of what was saved, and Delete. A save sends
// the whole page with If-Match (the version it loaded): a page changed meanwhile is a 412 shown with
// "Load their version", never overwritten. Each 422 is shown at its field, an item's at that item even
// after it was moved. A role without write:status_pages sees it all read-only.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { SaveBar } from "../components/save-bar.tsx";
import { Link, navigate } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { ColourField } from "./colour-field.tsx";
import { DeletePageDialog } from "./delete-page-dialog.tsx";
import { bodyOf, draftOf, EMPTY_PAGE, keyedErrors, type PageDraft, type SectionDraft, type StatusPage } from "./page-draft.ts";
import { PagePreview } from "./page-preview.tsx";
import { PageTabs } from "./page-tabs.tsx";
import { SectionsEditor } from "./sections-editor.tsx";
import { WRITE_STATUS_PAGES } from "../../../shared/verbs/status-pages/scopes.ts";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

type TextKey = "slug" | "title" | "description" | "logo_url" | "primary_color" | "accent_color" | "footer_text" | "custom_domain";
/** The page's own text fields in the order shown; the colours get a picker beside the text. */
const FIELDS: { key: TextKey; id: string; label: string; hint?: string; multiline?: boolean }[] = [
  { key: "slug", id: "page-slug", label: i18nKey("status-pages:col.slug"), hint: i18nKey("status-pages:field.slugHint") },
  { key: "title", id: "page-title", label: i18nKey("status-pages:col.title") },
  {
    key: "description",
    id: "page-description",
    label: i18nKey("status-pages:field.description"),
    hint: i18nKey("status-pages:field.descriptionHint"),
    multiline: true,
  },
  { key: "logo_url", id: "page-logo", label: i18nKey("status-pages:field.logo"), hint: i18nKey("status-pages:field.logoHint") },
  { key: "primary_color", id: "page-primary", label: i18nKey("status-pages:field.primary") },
  { key: "accent_color", id: "page-accent", label: i18nKey("status-pages:field.accent") },
  {
    key: "footer_text",
    id: "page-footer",
    label: i18nKey("status-pages:field.footer"),
    hint: i18nKey("status-pages:field.footerHint"),
    multiline: true,
  },
  { key: "custom_domain", id: "page-domain", label: i18nKey("status-pages:field.domain"), hint: i18nKey("status-pages:field.domainHint") },
];

export function PageEditor({ id }: { id?: string | undefined }) {
  const t = useT();
  const creating = id === undefined;
  const canWrite = useSession().can(WRITE_STATUS_PAGES);
  const [draft, setDraft] = useState<PageDraft>(EMPTY_PAGE);
  // The page as last loaded or saved: its title, whether it is public, and its version (the ETag).
  const [page, setPage] = useState<StatusPage | undefined>();
  const [version, setVersion] = useState<number | undefined>();
  const [conflict, setConflict] = useState(false);
  const [saved, setSaved] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const submit = useSubmit();
  // The sections of the save last answered: its 422s name places in that list.
  const sent = useRef<SectionDraft[]>([]);
  const loaded = useLoad(
    async () => (creating ? undefined : ok(api.GET("/api/v1/status-pages/{page_id}", { params: { path: { page_id: id } } }))),
    [id],
  );

  useEffect(() => {
    const p = loaded.data;
    if (!p) return;
    setPage(p);
    setDraft(draftOf(p));
    // The ETag is the page's updated_at in epoch ms (functions/routes/status-pages/page-routes.ts).
    setVersion(Date.parse(p.updated_at));
    setConflict(false);
  }, [loaded.data]);

  const set = (change: Partial<PageDraft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...change }));
  };
  const setSections = (change: (s: SectionDraft[]) => SectionDraft[]) => {
    setSaved(false);
    setDraft((d) => ({ ...d, sections: change(d.sections) }));
  };

  const send = (e: Event) => {
    e.preventDefault();
    sent.current = draft.sections;
    setSaved(false);
    void submit.run(async () => {
      setConflict(false);
      // The body's types are the API's; values typed wrong reach it as typed, for its 422.
      const body = bodyOf(draft) as never;
      try {
        if (creating) {
          const created = await ok(api.POST("/api/v1/status-pages", { body }));
          navigate(`/status-pages/${created.id}`);
          return;
        }
        const stored = await ok(
          api.PATCH("/api/v1/status-pages/{page_id}", {
            params: { path: { page_id: id } },
            body,
            headers: version !== undefined ? { "If-Match": `W/"${version}"` } : {},
          }),
        );
        setPage(stored);
        setVersion(Date.parse(stored.updated_at));
        setSaved(true);
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 412) setConflict(true);
        throw err;
      }
    });
  };

  if (!creating && loaded.error !== undefined && !loaded.data) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  if (!creating && !page) return <p aria-busy="true">{t("common:loading")}</p>;
  if (creating && !canWrite) return <Notice kind="error">{t("status-pages:editor.cannotCreate")}</Notice>;
  const f = keyedErrors(submit.fields, sent.current);
  return (
    <section aria-labelledby="form-title" class="form-page status-page-editor">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/status-pages">{t("status-pages:title")}</Link>
          </p>
          <h1 id="form-title">{page ? page.title : t("status-pages:list.new")}</h1>
        </div>
        {page && (
          <div class="actions">
            {page.published ? (
              <a class="button" href={`/status/${page.slug}`} target="_blank" rel="noopener">
                {t("status-pages:editor.open")}
              </a>
            ) : (
              <span class="badge">{t("status-pages:editor.draft")}</span>
            )}
            {canWrite && (
              <button type="button" class="danger" onClick={() => setDeleting(true)}>
                {t("status-pages:deleteAsk")}
              </button>
            )}
          </div>
        )}
      </header>
      {page && <PageTabs id={String(page.id)} current="" />}
      {deleting && page && <DeletePageDialog page={page} version={version} onClose={() => setDeleting(false)} />}
      {!canWrite && <Notice kind="info">{t("status-pages:editor.readOnly")}</Notice>}
      <form onSubmit={send} noValidate>
        <fieldset class="plain" disabled={!canWrite}>
          {FIELDS.map((x) =>
            x.key === "primary_color" || x.key === "accent_color" ? (
              <ColourField
                key={x.key}
                id={x.id}
                label={t(x.label)}
                value={draft[x.key]}
                error={f[x.key]}
                onValue={(v) => set({ [x.key]: v })}
              />
            ) : (
              <Field key={x.key} id={x.id} label={t(x.label)} error={f[x.key]} {...(x.hint ? { hint: t(x.hint) } : {})}>
                {(a11y) =>
                  x.multiline ? (
                    <textarea
                      {...a11y}
                      rows={2}
                      value={draft[x.key]}
                      onInput={(e) => set({ [x.key]: (e.currentTarget as HTMLTextAreaElement).value })}
                    />
                  ) : (
                    <input {...a11y} value={draft[x.key]} onInput={(e) => set({ [x.key]: (e.currentTarget as HTMLInputElement).value })} />
                  )
                }
              </Field>
            ),
          )}
          <label class="check row">
            <input type="checkbox" checked={draft.published} onChange={() => set({ published: !draft.published })} />{" "}
            {t("status-pages:editor.published")}
          </label>
          {f.published && <small class="field-error">{f.published}</small>}
          <SectionsEditor sections={draft.sections} onSections={setSections} errors={f} readOnly={!canWrite} />
        </fieldset>
        {saved && <Notice kind="success">{t("status-pages:saved")}</Notice>}
        {canWrite && (
          <SaveBar
            error={conflict ? t("status-pages:editor.changed") : submit.error}
            conflict={conflict}
            onLoadTheirs={() => loaded.reload()}
            busy={submit.busy}
            label={creating ? t("status-pages:editor.create") : t("status-pages:saveChanges")}
          />
        )}
      </form>
      {page && <PagePreview id={String(page.id)} version={version} title={page.title} />}
    </section>
  );
}
