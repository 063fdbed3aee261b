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
import { useT } from "../i18n/use-t.ts";

const PAGE = 100;

export function PagesList() {
  const t = useT();
  const canWrite = useSession().can(WRITE_STATUS_PAGES);
  const [offset, setOffset] = useState(0);
  const list = useLoad(
    () => ok(api.GET("/api/v1/status-pages", { params: { query: { limit: String(PAGE), offset: String(offset), sort: "title" } } })),
    [offset],
  );
  return (
    <section aria-labelledby="status-pages-title">
      <header class="page-head">
        <h1 id="status-pages-title">{t("status-pages:title")}</h1>
        {canWrite && (
          <div class="actions">
            <Link href="/status-pages/new" class="button primary">
              {t("status-pages:list.new")}
            </Link>
          </div>
        )}
      </header>
      <p class="meta">{t("status-pages:list.intro")}</p>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>{t("status-pages:title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("status-pages:col.title")}</th>
              <th scope="col">{t("status-pages:col.slug")}</th>
              <th scope="col">{t("status-pages:col.state")}</th>
              <th scope="col">{t("status-pages:col.lists")}</th>
              <th scope="col">{t("status-pages:col.publicPage")}</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((p) => {
              const items = p.sections.reduce((n, s) => n + s.items.length, 0);
              return (
                <tr key={p.id} data-page={p.slug}>
                  <td data-label={t("status-pages:col.title")}>
                    <Link href={`/status-pages/${p.id}`}>{p.title}</Link>
                  </td>
                  <td data-label={t("status-pages:col.slug")}>
                    <code>{p.slug}</code>
                  </td>
                  <td data-label={t("status-pages:col.state")}>
                    {p.published ? (
                      <span class="badge">{t("status-pages:published")}</span>
                    ) : (
                      <span class="badge">{t("status-pages:draft")}</span>
                    )}
                  </td>
                  <td data-label={t("status-pages:col.lists")}>
                    {t("status-pages:list.sections", { count: p.sections.length })}, {t("status-pages:list.items", { count: items })}
                  </td>
                  <td data-label={t("status-pages:col.publicPage")}>
                    {p.published ? (
                      <a href={`/status/${p.slug}`} target="_blank" rel="noopener">
                        {/* i18n-ignore: the page's URL path, not words */}
                        /status/{p.slug}
                      </a>
                    ) : (
                      <span class="meta">{t("status-pages:list.notPublic")}</span>
                    )}
                    {p.custom_domain && <span class="meta"> {t("status-pages:list.andDomain", { domain: p.custom_domain })}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {list.data && list.data.items.length === 0 && (
          <p class="empty">{canWrite ? t("status-pages:list.emptyWriter") : t("status-pages:list.emptyReader")}</p>
        )}
      </div>
      {list.data && (
        <Pager offset={offset} limit={PAGE} total={list.data.total} onOffset={setOffset} label={t("status-pages:list.pages")} />
      )}
    </section>
  );
}
