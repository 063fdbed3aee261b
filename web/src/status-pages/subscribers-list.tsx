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

const PAGE = 50;
type State = "" | "pending" | "confirmed";
const STATES: { value: State; label: string }[] = [
  { value: "", label: "All" },
  { value: "confirmed", label: "Confirmed" },
  { value: "pending", label: "Awaiting confirmation" },
];

export function SubscribersList({ pageId }: { pageId: string }) {
  const canList = useSession().can(WRITE_STATUS_PAGES);
  const page = useLoad(() => ok(api.GET("/api/v1/status-pages/{page_id}", { params: { path: { page_id: pageId } } })), [pageId]);
  if (page.error !== undefined && !page.data) return <Notice kind="error">{messageOf(page.error)}</Notice>;
  if (!page.data) return <p aria-busy="true">Loading…</p>;
  const p = page.data;
  return (
    <section aria-labelledby="subscribers-title" class="status-subscribers">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/status-pages">Status pages</Link> / <Link href={`/status-pages/${p.id}`}>{p.title}</Link>
          </p>
          <h1 id="subscribers-title">Subscribers of {p.title}</h1>
        </div>
      </header>
      <PageTabs id={String(p.id)} current="subscribers" />
      {canList ? (
        <SubscriberTable pageId={pageId} />
      ) : (
        <Notice kind="info">Subscribers' addresses are personal data: only a role with write:status_pages can see them.</Notice>
      )}
    </section>
  );
}

function SubscriberTable({ pageId }: { pageId: string }) {
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
          label="Show"
          value={state}
          choices={STATES}
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
            Address
            <input type="search" value={typed} onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)} />
          </label>
        </form>
      </div>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>Subscribers</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Kind</th>
              <th scope="col">State</th>
              <th scope="col">Subscribed</th>
              <th scope="col">Last message</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((s) => (
              <tr key={s.id} data-subscriber={s.id}>
                <td data-label="Address">{s.address}</td>
                <td data-label="Kind">{s.kind === "email" ? "E-mail" : "Webhook"}</td>
                <td data-label="State">
                  <span class="badge">{s.state === "confirmed" ? "confirmed" : "awaiting confirmation"}</span>
                </td>
                <td data-label="Subscribed">{new Date(s.confirmed_at ?? s.created_at).toLocaleString()}</td>
                <td data-label="Last message">
                  {s.last_delivery_state === null ? "None yet" : s.last_delivery_state}
                  {s.last_delivery_error && <span class="hint"> ({s.last_delivery_error})</span>}
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => setRemoving({ id: s.id, address: s.address })}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && list.data.items.length === 0 && (
          <p class="empty">
            {filtered
              ? "No subscriber matches."
              : "Nobody has subscribed yet: the public page's Subscribe form adds them once they confirm."}
          </p>
        )}
      </div>
      {list.data && <Pager offset={offset} limit={PAGE} total={list.data.total} onOffset={setOffset} label="Subscribers" />}
      {removing && (
        <DeleteDialog
          name={removing.address}
          button="Remove subscriber"
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
          They get no more notices from this page, and the messages still queued to them are dropped.
        </DeleteDialog>
      )}
    </>
  );
}
