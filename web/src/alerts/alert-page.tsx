// One incident's page (/alerts/<id>; docs/adr/0447-acknowledgement.md): its state, who acknowledged it
// and why, its alerts in order (the failure, what joined it, the recovery) and each delivery to a sink,
// with Acknowledge / Un-acknowledge. Live from /monitors/stream: an alert event of this incident reloads it.
import { useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, useStream } from "../live.tsx";
import { Link } from "../router.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { AckButtons } from "./ack-buttons.tsx";
import { SubjectLink } from "./subject-link.tsx";
import { RelativeTime } from "../components/time.tsx";

export function AlertPage({ id }: { id: string }) {
  const t = useT();
  const [version, setVersion] = useState(0);
  const incident = useLoad(() => ok(api.GET("/api/v1/alerts/{alert_id}", { params: { path: { alert_id: id } } })), [id, version]);
  const reloadSoon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const live = useStream(
    "/api/v1/monitors/stream",
    (data) => {
      if (data.type !== "alert") return;
      const mine = incident.data?.id ?? Number(id);
      if (data.alert_id !== mine && data.incident_id !== mine) return;
      clearTimeout(reloadSoon.current);
      reloadSoon.current = setTimeout(() => setVersion((v) => v + 1), 300);
    },
    () => setVersion((v) => v + 1),
  );

  if (incident.error !== undefined && !incident.data) return <Notice kind="error">{messageOf(incident.error)}</Notice>;
  const a = incident.data;
  if (!a) return <p aria-busy="true">{t("common:loading")}</p>;
  return (
    <article aria-labelledby="alert-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/alerts">{t("alerts:title")}</Link>
          </p>
          <h1 id="alert-title">
            {a.title} <Status value={a.state} />
          </h1>
        </div>
        <LiveBadge state={live} />
        <AckButtons alert={a} onDone={() => setVersion((v) => v + 1)} />
      </header>
      <dl class="fields">
        <dt>{t("alerts:col.severity")}</dt>
        <dd>
          <Status value={a.severity} />
        </dd>
        <dt>{t("alerts:col.about")}</dt>
        <dd>
          <SubjectLink alert={a} />
        </dd>
        <dt>{t("alerts:col.since")}</dt>
        <dd>
          <RelativeTime at={a.occurred_at} />
        </dd>
        <dt>{t("alerts:page.resolved")}</dt>
        <dd>
          <RelativeTime at={a.resolved_at} />
        </dd>
        <dt>{t("alerts:col.ackBy")}</dt>
        <dd>
          {a.acknowledged_by ? (
            <>
              {a.acknowledged_by}, <RelativeTime at={a.acknowledged_at} />
            </>
          ) : (
            "—"
          )}
        </dd>
        {a.acknowledged_note && (
          <>
            <dt>{t("alerts:page.note")}</dt>
            <dd>{a.acknowledged_note}</dd>
          </>
        )}
      </dl>
      <h2>{t("alerts:page.timeline")}</h2>
      <div class="table-wrap">
        <table>
          <caption>{t("alerts:page.timelineCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("alerts:page.when")}</th>
              <th scope="col">{t("alerts:page.kind")}</th>
              <th scope="col">{t("alerts:col.title")}</th>
              <th scope="col">{t("alerts:page.sent")}</th>
            </tr>
          </thead>
          <tbody>
            {a.alerts.map((x) => (
              <tr key={x.id} data-alert={x.id}>
                <td data-label={t("alerts:page.when")}>
                  <RelativeTime at={x.occurred_at} />
                </td>
                <td data-label={t("alerts:page.kind")}>
                  <Status value={x.status} /> {x.kind}
                </td>
                <td data-label={t("alerts:col.title")}>{x.title}</td>
                <td data-label={t("alerts:page.sent")}>{x.dispatch_state}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>{t("alerts:page.deliveries")}</h2>
      <div class="table-wrap">
        <table>
          <caption>{t("alerts:page.deliveriesCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("alerts:page.alert")}</th>
              <th scope="col">{t("alerts:page.sink")}</th>
              <th scope="col">{t("alerts:page.state")}</th>
              <th scope="col">{t("alerts:page.attempts")}</th>
              <th scope="col">{t("alerts:page.delivered")}</th>
            </tr>
          </thead>
          <tbody>
            {a.deliveries_list.map((d) => (
              <tr key={d.id}>
                <td data-label={t("alerts:page.alert")}>#{d.alert_id}</td>
                <td data-label={t("alerts:page.sink")}>{d.sink_name ?? `#${d.sink_id}`}</td>
                <td data-label={t("alerts:page.state")}>
                  <Status value={d.state} />
                </td>
                <td data-label={t("alerts:page.attempts")}>{d.attempt_count}</td>
                <td data-label={t("alerts:page.delivered")}>
                  <RelativeTime at={d.delivered_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {a.deliveries_list.length === 0 && <p class="empty">{t("alerts:page.nothingSent")}</p>}
      </div>
    </article>
  );
}
