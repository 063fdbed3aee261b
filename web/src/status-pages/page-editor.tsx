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

type TextKey = "slug" | "title" | "description" | "logo_url" | "primary_color" | "accent_color" | "footer_text" | "custom_domain";
/** The page's own text fields in the order shown; the colours get a picker beside the text. */
const FIELDS: { key: TextKey; id: string; label: string; hint?: string; multiline?: boolean }[] = [
  { key: "slug", id: "page-slug", label: "Slug", hint: "The page's address: /status/<slug>; lower-case letters, digits and inner hyphens" },
  { key: "title", id: "page-title", label: "Title" },
  { key: "description", id: "page-description", label: "Description", hint: "Optional; shown as text under the title", multiline: true },
  { key: "logo_url", id: "page-logo", label: "Logo URL", hint: "Optional: an http(s) URL or a path on this server" },
  { key: "primary_color", id: "page-primary", label: "Primary colour" },
  { key: "accent_color", id: "page-accent", label: "Accent colour" },
  { key: "footer_text", id: "page-footer", label: "Footer text", hint: "Optional; shown as text", multiline: true },
  {
    key: "custom_domain",
    id: "page-domain",
    label: "Custom domain",
    hint: "Optional: a host name such as status.example.com, whose requests get this page at /",
  },
];

const CHANGED =
  "This status page was changed meanwhile (by someone else, or in another tab). Load their version, then make your changes again.";

export function PageEditor({ id }: { id?: string | undefined }) {
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
  if (!creating && !page) return <p aria-busy="true">Loading…</p>;
  if (creating && !canWrite)
    return <Notice kind="error">Your role cannot create status pages (it needs the write:status_pages scope).</Notice>;
  const f = keyedErrors(submit.fields, sent.current);
  return (
    <section aria-labelledby="form-title" class="form-page status-page-editor">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/status-pages">Status pages</Link>
          </p>
          <h1 id="form-title">{page ? page.title : "New status page"}</h1>
        </div>
        {page && (
          <div class="actions">
            {page.published ? (
              <a class="button" href={`/status/${page.slug}`} target="_blank" rel="noopener">
                Open the public page
              </a>
            ) : (
              <span class="badge">Draft: not public</span>
            )}
            {canWrite && (
              <button type="button" class="danger" onClick={() => setDeleting(true)}>
                Delete…
              </button>
            )}
          </div>
        )}
      </header>
      {page && <PageTabs id={String(page.id)} current="" />}
      {deleting && page && <DeletePageDialog page={page} version={version} onClose={() => setDeleting(false)} />}
      {!canWrite && <Notice kind="info">Your role can read status pages but not change them (write:status_pages).</Notice>}
      <form onSubmit={send} noValidate>
        <fieldset class="plain" disabled={!canWrite}>
          {FIELDS.map((t) =>
            t.key === "primary_color" || t.key === "accent_color" ? (
              <ColourField
                key={t.key}
                id={t.id}
                label={t.label}
                value={draft[t.key]}
                error={f[t.key]}
                onValue={(v) => set({ [t.key]: v })}
              />
            ) : (
              <Field key={t.key} id={t.id} label={t.label} error={f[t.key]} {...(t.hint ? { hint: t.hint } : {})}>
                {(a11y) =>
                  t.multiline ? (
                    <textarea
                      {...a11y}
                      rows={2}
                      value={draft[t.key]}
                      onInput={(e) => set({ [t.key]: (e.currentTarget as HTMLTextAreaElement).value })}
                    />
                  ) : (
                    <input {...a11y} value={draft[t.key]} onInput={(e) => set({ [t.key]: (e.currentTarget as HTMLInputElement).value })} />
                  )
                }
              </Field>
            ),
          )}
          <label class="check row">
            <input type="checkbox" checked={draft.published} onChange={() => set({ published: !draft.published })} /> Published (a draft is
            never public)
          </label>
          {f.published && <small class="field-error">{f.published}</small>}
          <SectionsEditor sections={draft.sections} onSections={setSections} errors={f} readOnly={!canWrite} />
        </fieldset>
        {saved && <Notice kind="success">Saved.</Notice>}
        {canWrite && (
          <SaveBar
            error={conflict ? CHANGED : submit.error}
            conflict={conflict}
            onLoadTheirs={() => loaded.reload()}
            busy={submit.busy}
            label={creating ? "Create status page" : "Save changes"}
          />
        )}
      </form>
      {page && <PagePreview id={String(page.id)} version={version} title={page.title} />}
    </section>
  );
}
