// A monitor's events (GET /monitors/{id}/events), newest first, a page at a time. An event that raised an
// alert says what became of it (delivered, on its way, failed, not sent and why) with a link to it; a down
// event whose alert was folded into an upstream's says so, naming and linking that upstream; one whose
// alert took in others' lists them. `version` changes when the page is read again; `live` holds the status
// changes the stream reported, shown above the first page until a read has them (docs/adr/0463).
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Status } from "../components/status.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { EventAlert } from "./event-alert.tsx";
import { FoldedDependents, UpstreamCause } from "./upstream.tsx";
import { RelativeTime } from "../components/time.tsx";

const PAGE = 20;

/** A status change as the stream reports it (`type: "status"`). */
export interface LiveEvent {
  status: string;
  status_from: string;
  msg: string;
  ts: string;
}

function duration(secs: number | null): string {
  if (secs == null) return "—";
  if (secs < 120) return t("monitoring:duration.s", { n: secs });
  if (secs < 7200) return t("monitoring:duration.min", { n: Math.round(secs / 60) });
  if (secs < 172_800) return t("monitoring:duration.h", { n: Math.round(secs / 3600) });
  return t("monitoring:duration.d", { n: Math.round(secs / 86_400) });
}

export function MonitorEvents({ monitorId, version, live }: { monitorId: number; version: number; live: readonly LiveEvent[] }) {
  useT();
  const [offset, setOffset] = useState(0);
  const events = useLoad(
    () =>
      ok(
        api.GET("/api/v1/monitors/{monitor_id}/events", {
          params: { path: { monitor_id: String(monitorId) }, query: { limit: String(PAGE), offset: String(offset) } },
        }),
      ),
    [monitorId, offset, version],
  );
  const newest = events.data?.items[0]?.created_at;
  const heard =
    offset === 0 && events.data ? live.filter((e) => newest === undefined || Date.parse(e.ts) > Date.parse(newest)).reverse() : [];
  return (
    <section aria-labelledby="monitor-events-title">
      <h2 id="monitor-events-title">{t("monitoring:events.title")}</h2>
      {events.error !== undefined && <Notice kind="error">{messageOf(events.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t("monitoring:events.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("monitoring:events.when")}</th>
              <th scope="col">{t("monitoring:events.event")}</th>
              <th scope="col">{t("monitoring:events.message")}</th>
              <th scope="col">{t("monitoring:events.lasted")}</th>
              <th scope="col">{t("monitoring:events.alert")}</th>
            </tr>
          </thead>
          <tbody>
            {heard.map((e) => (
              <tr key={`live-${e.ts}`} data-event={e.status} data-live="true">
                <td data-label={t("monitoring:events.when")}>
                  <RelativeTime at={e.ts} />
                </td>
                <td data-label={t("monitoring:events.event")}>
                  <Status value={e.status} />{" "}
                  <span class="meta">{e.status_from ? t("monitoring:events.from", { status: e.status_from }) : ""}</span>
                </td>
                <td data-label={t("monitoring:events.message")}>{e.msg || "—"}</td>
                <td data-label={t("monitoring:events.lasted")}>—</td>
                <td data-label={t("monitoring:events.alert")}>—</td>
              </tr>
            ))}
            {events.data?.items.map((e) => (
              <tr key={e.id} data-event={e.event_type} class={e.suppressed_by != null ? "event-suppressed" : undefined}>
                <td data-label={t("monitoring:events.when")}>
                  <RelativeTime at={e.created_at} />
                </td>
                <td data-label={t("monitoring:events.event")}>
                  <Status value={e.status_to ?? e.event_type} />{" "}
                  <span class="meta">
                    {e.event_type}
                    {e.status_from ? ` ${t("monitoring:events.from", { status: e.status_from })}` : ""}
                  </span>
                </td>
                <td data-label={t("monitoring:events.message")}>{e.msg ?? "—"}</td>
                <td data-label={t("monitoring:events.lasted")}>{duration(e.duration_secs)}</td>
                <td data-label={t("monitoring:events.alert")}>
                  {e.suppressed_by != null ? (
                    <>
                      <span class="badge badge-suppressed">{t("monitoring:events.suppressed")}</span>{" "}
                      <UpstreamCause upstream={e.upstream} />
                    </>
                  ) : e.alert || e.suppressed_dependents.length > 0 ? (
                    <>
                      {e.alert && <EventAlert alert={e.alert} />}
                      {e.suppressed_dependents.length > 0 && (
                        <>
                          {e.alert ? t("monitoring:events.alsoNamedAfter") : t("monitoring:events.alsoNamed")}
                          <FoldedDependents monitors={e.suppressed_dependents} />
                        </>
                      )}
                    </>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {events.data?.items.length === 0 && heard.length === 0 && <p class="empty">{t("monitoring:events.empty")}</p>}
      </div>
      {events.data && (
        <Pager offset={offset} limit={PAGE} total={events.data.total} onOffset={setOffset} label={t("monitoring:events.pages")} />
      )}
    </section>
  );
}
