// The alerts (/alerts; docs/adr/0447-acknowledgement.md): incidents open, acknowledged or resolved, and the
// events, one tab each; each row its severity, title, what it is about, since when and who acknowledged
// it, with Acknowledge / Un-acknowledge for a role with write:alerts. Live from /monitors/stream: a new
// alert or an acknowledgement anywhere reloads the page (a burst once).
import { useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Segmented } from "../components/segmented.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, useStream } from "../live.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { AckButtons } from "./ack-buttons.tsx";
import { SubjectLink } from "./subject-link.tsx";
import { RelativeTime } from "../components/time.tsx";

const PAGE = 50;
type Tab = "open" | "acknowledged" | "resolved" | "event";
const TABS: readonly { value: Tab; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "acknowledged", label: "Acknowledged" },
  { value: "resolved", label: "Resolved" },
  { value: "event", label: "Events" },
];
const EMPTY: Record<Tab, string> = {
  open: "No open alerts: nothing is failing that nobody has in hand.",
  acknowledged: "No acknowledged alerts.",
  resolved: "No resolved alerts yet.",
  event: "No events yet.",
};

export function AlertsPage() {
  const [tab, setTab] = useState<Tab>("open");
  const [offset, setOffset] = useState(0);
  const [version, setVersion] = useState(0);
  const page = useLoad(
    () =>
      ok(
        api.GET("/api/v1/alerts", {
          params: { query: { state: tab, limit: String(PAGE), offset: String(offset), sort: "occurred_at", direction: "desc" } },
        }),
      ),
    [tab, offset, version],
  );
  const reloadSoon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const live = useStream(
    "/api/v1/monitors/stream",
    (data) => {
      if (data.type !== "alert") return;
      clearTimeout(reloadSoon.current);
      reloadSoon.current = setTimeout(() => setVersion((v) => v + 1), 300);
    },
    () => setVersion((v) => v + 1),
  );
  const choose = (t: Tab) => {
    setTab(t);
    setOffset(0);
  };
  return (
    <section aria-labelledby="alerts-title">
      <header class="page-head">
        <h1 id="alerts-title">Alerts</h1>
        <LiveBadge state={live} />
      </header>
      <p class="meta">
        An incident opens with a failure and ends with its recovery. Acknowledging it says someone has it in hand: its later failures are
        not sent again until it recovers or is un-acknowledged.
      </p>
      <Segmented label="Show" options={TABS} value={tab} onChange={choose} />
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>{TABS.find((t) => t.value === tab)!.label} alerts</caption>
          <thead>
            <tr>
              <th scope="col">Severity</th>
              <th scope="col">Title</th>
              <th scope="col">About</th>
              <th scope="col">Since</th>
              <th scope="col">Acknowledged by</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(page.data?.items ?? []).map((a) => (
              <tr key={a.id} data-alert={a.id}>
                <td data-label="Severity">
                  <Status value={a.severity} />
                </td>
                <td data-label="Title">
                  <Link href={`/alerts/${a.id}`}>{a.title}</Link>
                  {a.alert_count > 1 && <span class="meta"> ({a.alert_count} alerts)</span>}
                </td>
                <td data-label="About">
                  <SubjectLink alert={a} />
                </td>
                <td data-label="Since">
                  <RelativeTime at={a.occurred_at} />
                </td>
                <td data-label="Acknowledged by">{a.acknowledged_by ?? "—"}</td>
                <td data-label="Actions">
                  <AckButtons alert={a} onDone={() => setVersion((v) => v + 1)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.data && page.data.items.length === 0 && <p class="empty">{EMPTY[tab]}</p>}
      </div>
      {page.data && <Pager offset={offset} limit={PAGE} total={page.data.total} onOffset={setOffset} label="Pages" />}
    </section>
  );
}
