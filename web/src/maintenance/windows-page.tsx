// The maintenance windows (/maintenance): each window's name (to its form), when it applies, what it
// covers and where it stands now (active until…, upcoming from…, ended or disabled, by shape as well as
// colour), active ones first; "New maintenance window" for a role with write:monitors. While a window is
// open the monitors it covers are `maintenance` and raise no alerts (docs/monitors.md).
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { coversText, scheduleText, windowState } from "./window-text.ts";

const PAGE = 100;
const ORDER = { active: 0, upcoming: 1, ended: 2, disabled: 3 };

export function WindowsPage() {
  const t = useT();
  const canWrite = useSession().can("write:monitors");
  const [offset, setOffset] = useState(0);
  const page = useLoad(
    () =>
      ok(
        api.GET("/api/v1/monitors/maintenance-windows", {
          params: { query: { limit: String(PAGE), offset: String(offset), sort: "name" } },
        }),
      ),
    [offset],
  );
  // Within the page: what is open now first, then what comes next (the API sorts by name).
  const items = [...(page.data?.items ?? [])].sort((a, b) => ORDER[windowState(a).status] - ORDER[windowState(b).status]);
  return (
    <section aria-labelledby="maintenance-title">
      <header class="page-head">
        <h1 id="maintenance-title">{t("maintenance:title")}</h1>
        {canWrite && (
          <div class="actions">
            <Link href="/maintenance/new" class="button primary">
              {t("maintenance:new")}
            </Link>
          </div>
        )}
      </header>
      <p class="meta">{t("maintenance:intro")}</p>
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>{t("maintenance:caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("maintenance:col.name")}</th>
              <th scope="col">{t("maintenance:col.state")}</th>
              <th scope="col">{t("maintenance:col.when")}</th>
              <th scope="col">{t("maintenance:col.covers")}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((w) => {
              const state = windowState(w);
              return (
                <tr key={w.id} data-window={w.id}>
                  <td data-label={t("maintenance:col.name")}>
                    <Link href={`/maintenance/${w.id}`}>{w.name}</Link>
                  </td>
                  <td data-label={t("maintenance:col.state")}>
                    <Status value={state.status} /> {state.detail && <span class="meta">{state.detail}</span>}
                  </td>
                  <td data-label={t("maintenance:col.when")}>{scheduleText(w)}</td>
                  <td data-label={t("maintenance:col.covers")}>{coversText(w)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {page.data && page.data.items.length === 0 && (
          <p class="empty">{canWrite ? t("maintenance:empty") : t("maintenance:emptyReadOnly")}</p>
        )}
      </div>
      {page.data && <Pager offset={offset} limit={PAGE} total={page.data.total} onOffset={setOffset} label={t("maintenance:pages")} />}
    </section>
  );
}
