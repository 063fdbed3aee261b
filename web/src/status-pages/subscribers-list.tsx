// A status page's subscribers (/status-pages/<id>/subscribers): who gets its incident notices, filtered by
// state (pending confirmation, confirmed) and searched by address, with the newest message's outcome (a dead
// letter says why), and "Remove" behind a confirmation. Addresses are personal data: only a role with
// write:status_pages may list them (docs/adr/0458), so any other role is told so and nothing is requested.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { ChoiceFilter } from "../components/choice-filter.tsx";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { WRITE_STATUS_PAGES } from "../../../shared/verbs/status-pages/scopes.ts";
import { PageTabs } from "./page-tabs.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const PAGE = 50;
type State = "" | "pending" | "confirmed";
const STATES: { value: State; label: string }[] = [
  { value: "", label: i18nKey("status-pages:filter.all") },
  { value: "confirmed", label: i18nKey("status-pages:subscribers.confirmedFilter") },
  { value: "pending", label: i18nKey("status-pages:subscribers.pendingFilter") },
];

export function SubscribersList({ pageId }: { pageId: string }) {
  const t = useT();
  const canList = useSession().can(WRITE_STATUS_PAGES);
  const page = useLoad(() => ok(api.GET("/api/v1/status-pages/{page_id}", { params: { path: { page_id: pageId } } })), [pageId]);
  if (page.error !== undefined && !page.data) return <Notice kind="error">{messageOf(page.error)}</Notice>;
  if (!page.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const p = page.data;
  return (
    <section aria-labelledby="subscribers-title" class="status-subscribers">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/status-pages">{t("status-pages:title")}</Link> / <Link href={`/status-pages/${p.id}`}>{p.title}</Link>
          </p>
          <h1 id="subscribers-title">{t("status-pages:subscribers.of", { title: p.title })}</h1>
        </div>
      </header>
      <PageTabs id={String(p.id)} current="subscribers" />
      {canList ? <SubscriberTable pageId={pageId} /> : <Notice kind="info">{t("status-pages:subscribers.personal")}</Notice>}
    </section>
  );
}

function SubscriberTable({ pageId }: { pageId: string }) {
  const t = useT();
  const [state, setState] = useState<State>("");
  const [q, setQ] = useState("");
  // Searched on Enter, not on every key: each search is a request to a rate-limited route.
  const [typed, setTyped] = useState("");
  const [offset, setOffset] = useState(0);
  const [removing, setRemoving] = useState<{ id: number; address: string } | null>(null);
  const [version, setVersion] = useState(0);
  const list = useLoad(
    () =>
      ok(
        api.GET("/api/v1/status-pages/{page_id}/subscribers", {
          params: {
            path: { page_id: pageId },
            query: { limit: String(PAGE), offset: String(offset), ...(state ? { state } : {}), ...(q ? { q } : {}) },
          },
        }),
      ),
    [pageId, state, q, offset, version],
  );
  const filtered = state !== "" || q !== "";
  return (
    <>
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
        <form
          class="filter"
          onSubmit={(e) => {
            e.preventDefault();
            setOffset(0);
            setQ(typed.trim());
          }}
        >
          <label>
            {t("status-pages:subscribers.address")}
            <input type="search" value={typed} onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)} />
          </label>
        </form>
      </div>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>{t("status-pages:tabs.subscribers")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("status-pages:subscribers.address")}</th>
              <th scope="col">{t("status-pages:subscribers.kind")}</th>
              <th scope="col">{t("status-pages:col.state")}</th>
              <th scope="col">{t("status-pages:subscribers.subscribed")}</th>
              <th scope="col">{t("status-pages:subscribers.lastMessage")}</th>
              <th scope="col">
                <span class="visually-hidden">{t("status-pages:subscribers.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((s) => (
              <tr key={s.id} data-subscriber={s.id}>
                <td data-label={t("status-pages:subscribers.address")}>{s.address}</td>
                <td data-label={t("status-pages:subscribers.kind")}>
                  {s.kind === "email" ? t("status-pages:subscribers.email") : t("status-pages:subscribers.webhook")}
                </td>
                <td data-label={t("status-pages:col.state")}>
                  <span class="badge">
                    {s.state === "confirmed" ? t("status-pages:subscribers.confirmed") : t("status-pages:subscribers.pending")}
                  </span>
                </td>
                <td data-label={t("status-pages:subscribers.subscribed")}>{new Date(s.confirmed_at ?? s.created_at).toLocaleString()}</td>
                <td data-label={t("status-pages:subscribers.lastMessage")}>
                  {s.last_delivery_state === null ? t("status-pages:subscribers.noneYet") : s.last_delivery_state}
                  {s.last_delivery_error && <span class="hint"> ({s.last_delivery_error})</span>}
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => setRemoving({ id: s.id, address: s.address })}>
                    {t("status-pages:remove")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && list.data.items.length === 0 && (
          <p class="empty">{filtered ? t("status-pages:subscribers.noMatch") : t("status-pages:subscribers.none")}</p>
        )}
      </div>
      {list.data && (
        <Pager offset={offset} limit={PAGE} total={list.data.total} onOffset={setOffset} label={t("status-pages:tabs.subscribers")} />
      )}
      {removing && (
        <DeleteDialog
          name={removing.address}
          button={t("status-pages:subscribers.remove")}
          onClose={() => setRemoving(null)}
          remove={async () => {
            await ok(
              api.DELETE("/api/v1/status-pages/{page_id}/subscribers/{subscriber_id}", {
                params: { path: { page_id: pageId, subscriber_id: String(removing.id) } },
              }),
            );
            setRemoving(null);
            setVersion((v) => v + 1);
          }}
        >
          {t("status-pages:subscribers.removeText")}
        </DeleteDialog>
      )}
    </>
  );
}
