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
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { AckButtons } from "./ack-buttons.tsx";
import { SubjectLink } from "./subject-link.tsx";
import { RelativeTime } from "../components/time.tsx";

const PAGE = 50;
type Tab = "open" | "acknowledged" | "resolved" | "event";
// Labels, captions and empty messages are catalogue keys: `t(...)`.
const TABS: readonly { value: Tab; label: string }[] = [
  { value: "open", label: i18nKey("alerts:tab.open") },
  { value: "acknowledged", label: i18nKey("alerts:tab.acknowledged") },
  { value: "resolved", label: i18nKey("alerts:tab.resolved") },
  { value: "event", label: i18nKey("alerts:tab.event") },
];
const CAPTION: Record<Tab, string> = {
  open: i18nKey("alerts:caption.open"),
  acknowledged: i18nKey("alerts:caption.acknowledged"),
  resolved: i18nKey("alerts:caption.resolved"),
  event: i18nKey("alerts:caption.event"),
};
const EMPTY: Record<Tab, string> = {
  open: i18nKey("alerts:empty.open"),
  acknowledged: i18nKey("alerts:empty.acknowledged"),
  resolved: i18nKey("alerts:empty.resolved"),
  event: i18nKey("alerts:empty.event"),
};

export function AlertsPage() {
  const t = useT();
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
  const choose = (next: Tab) => {
    setTab(next);
    setOffset(0);
  };
  return (
    <section aria-labelledby="alerts-title">
      <header class="page-head">
        <h1 id="alerts-title">{t("alerts:title")}</h1>
        <LiveBadge state={live} />
      </header>
      <p class="meta">{t("alerts:intro")}</p>
      <Segmented label={t("alerts:show")} options={TABS.map((o) => ({ ...o, label: t(o.label) }))} value={tab} onChange={choose} />
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>{t(CAPTION[tab])}</caption>
          <thead>
            <tr>
              <th scope="col">{t("alerts:col.severity")}</th>
              <th scope="col">{t("alerts:col.title")}</th>
              <th scope="col">{t("alerts:col.about")}</th>
              <th scope="col">{t("alerts:col.since")}</th>
              <th scope="col">{t("alerts:col.ackBy")}</th>
              <th scope="col">
                <span class="visually-hidden">{t("alerts:col.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(page.data?.items ?? []).map((a) => (
              <tr key={a.id} data-alert={a.id}>
                <td data-label={t("alerts:col.severity")}>
                  <Status value={a.severity} />
                </td>
                <td data-label={t("alerts:col.title")}>
                  <Link href={`/alerts/${a.id}`}>{a.title}</Link>
                  {a.alert_count > 1 && <span class="meta">{t("alerts:count", { count: a.alert_count })}</span>}
                </td>
                <td data-label={t("alerts:col.about")}>
                  <SubjectLink alert={a} />
                </td>
                <td data-label={t("alerts:col.since")}>
                  <RelativeTime at={a.occurred_at} />
                </td>
                <td data-label={t("alerts:col.ackBy")}>{a.acknowledged_by ?? "—"}</td>
                <td data-label={t("alerts:col.actions")}>
                  <AckButtons alert={a} onDone={() => setVersion((v) => v + 1)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.data && page.data.items.length === 0 && <p class="empty">{t(EMPTY[tab])}</p>}
      </div>
      {page.data && <Pager offset={offset} limit={PAGE} total={page.data.total} onOffset={setOffset} label={t("alerts:pages")} />}
    </section>
  );
}
