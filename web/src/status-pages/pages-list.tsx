// The status pages (/status-pages): each page's title (to its editor), slug, whether it is published or a
// draft, its custom domain, how much it lists, and a link to its public page; "New status page" for a
// role with write:status_pages. Every role reads the list.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { WRITE_STATUS_PAGES } from "../../../shared/verbs/status-pages/scopes.ts";

const PAGE = 100;

export function PagesList() {
  const canWrite = useSession().can(WRITE_STATUS_PAGES);
  const [offset, setOffset] = useState(0);
  const list = useLoad(
    () => ok(api.GET("/api/v1/status-pages", { params: { query: { limit: String(PAGE), offset: String(offset), sort: "title" } } })),
    [offset],
  );
  return (
    <section aria-labelledby="status-pages-title">
      <header class="page-head">
        <h1 id="status-pages-title">Status pages</h1>
        {canWrite && (
          <div class="actions">
            <Link href="/status-pages/new" class="button primary">
              New status page
            </Link>
          </div>
        )}
      </header>
      <p class="meta">
        Public pages that tell people without an account what works and what does not, under the names you choose for what they list.
      </p>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>Status pages</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Slug</th>
              <th scope="col">State</th>
              <th scope="col">Lists</th>
              <th scope="col">Public page</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((p) => {
              const items = p.sections.reduce((n, s) => n + s.items.length, 0);
              return (
                <tr key={p.id} data-page={p.slug}>
                  <td data-label="Title">
                    <Link href={`/status-pages/${p.id}`}>{p.title}</Link>
                  </td>
                  <td data-label="Slug">
                    <code>{p.slug}</code>
                  </td>
                  <td data-label="State">{p.published ? <span class="badge">published</span> : <span class="badge">draft</span>}</td>
                  <td data-label="Lists">
                    {p.sections.length} {p.sections.length === 1 ? "section" : "sections"}, {items} {items === 1 ? "item" : "items"}
                  </td>
                  <td data-label="Public page">
                    {p.published ? (
                      <a href={`/status/${p.slug}`} target="_blank" rel="noopener">
                        /status/{p.slug}
                      </a>
                    ) : (
                      <span class="meta">not public while a draft</span>
                    )}
                    {p.custom_domain && <span class="meta"> and {p.custom_domain}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {list.data && list.data.items.length === 0 && (
          <p class="empty">
            {canWrite
              ? "No status pages yet. Add one with New status page."
              : "No status pages yet. Your role can read them but not create them (write:status_pages)."}
          </p>
        )}
      </div>
      {list.data && <Pager offset={offset} limit={PAGE} total={list.data.total} onOffset={setOffset} label="Pages" />}
    </section>
  );
}
