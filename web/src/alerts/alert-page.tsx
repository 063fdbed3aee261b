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
import { useLoad } from "../use-load.ts";
import { AckButtons } from "./ack-buttons.tsx";
import { SubjectLink } from "./subject-link.tsx";
import { RelativeTime } from "../components/time.tsx";

export function AlertPage({ id }: { id: string }) {
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
  if (!a) return <p aria-busy="true">Loading…</p>;
  return (
    <article aria-labelledby="alert-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/alerts">Alerts</Link>
          </p>
          <h1 id="alert-title">
            {a.title} <Status value={a.state} />
          </h1>
        </div>
        <LiveBadge state={live} />
        <AckButtons alert={a} onDone={() => setVersion((v) => v + 1)} />
      </header>
      <dl class="fields">
        <dt>Severity</dt>
        <dd>
          <Status value={a.severity} />
        </dd>
        <dt>About</dt>
        <dd>
          <SubjectLink alert={a} />
        </dd>
        <dt>Since</dt>
        <dd>
          <RelativeTime at={a.occurred_at} />
        </dd>
        <dt>Resolved</dt>
        <dd>
          <RelativeTime at={a.resolved_at} />
        </dd>
        <dt>Acknowledged by</dt>
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
            <dt>Note</dt>
            <dd>{a.acknowledged_note}</dd>
          </>
        )}
      </dl>
      <h2>Timeline</h2>
      <div class="table-wrap">
        <table>
          <caption>The alerts of this incident, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kind</th>
              <th scope="col">Title</th>
              <th scope="col">Sent</th>
            </tr>
          </thead>
          <tbody>
            {a.alerts.map((x) => (
              <tr key={x.id} data-alert={x.id}>
                <td data-label="When">
                  <RelativeTime at={x.occurred_at} />
                </td>
                <td data-label="Kind">
                  <Status value={x.status} /> {x.kind}
                </td>
                <td data-label="Title">{x.title}</td>
                <td data-label="Sent">{x.dispatch_state}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Deliveries</h2>
      <div class="table-wrap">
        <table>
          <caption>Each alert of this incident sent to each sink</caption>
          <thead>
            <tr>
              <th scope="col">Alert</th>
              <th scope="col">Sink</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Delivered</th>
            </tr>
          </thead>
          <tbody>
            {a.deliveries_list.map((d) => (
              <tr key={d.id}>
                <td data-label="Alert">#{d.alert_id}</td>
                <td data-label="Sink">{d.sink_name ?? `#${d.sink_id}`}</td>
                <td data-label="State">
                  <Status value={d.state} />
                </td>
                <td data-label="Attempts">{d.attempt_count}</td>
                <td data-label="Delivered">
                  <RelativeTime at={d.delivered_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {a.deliveries_list.length === 0 && (
          <p class="empty">Nothing was sent for this incident (no route matched, or it is still waiting).</p>
        )}
      </div>
    </article>
  );
}
