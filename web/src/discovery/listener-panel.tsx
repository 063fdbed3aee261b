// The passive mDNS/SSDP listener on the discovery screen (issue 28): its status (GET /discovery/listener/status:
// setting, sockets, groups, packets per protocol, last packet, errors) and what it heard (GET
// /discovery/listener/events, newest first, filtered by protocol and address), both reloaded when the
// discovery stream reports new events (`refresh` changes). What it hears also becomes results of the day's
// "Passive listener" scan above, reviewed like any scan's.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";
import { RelativeTime } from "../components/time.tsx";

const PROTOCOLS = ["", "mdns", "ssdp"] as const;
type Protocol = (typeof PROTOCOLS)[number];
const LABEL: Record<Protocol, string> = { "": "all", mdns: "mDNS", ssdp: "SSDP" };

export function ListenerPanel({ refresh }: { refresh: number }) {
  const [protocol, setProtocol] = useState<Protocol>("");
  const [address, setAddress] = useState("");
  const [asked, setAsked] = useState("");
  const status = useLoad(() => ok(api.GET("/api/v1/discovery/listener/status")), [refresh]);
  const events = useLoad(
    () =>
      ok(
        api.GET("/api/v1/discovery/listener/events", {
          params: { query: { limit: "25", ...(protocol ? { protocol } : {}), ...(asked ? { address: asked } : {}) } },
        }),
      ),
    [refresh, protocol, asked],
  );
  const s = status.data;
  const filter = (e: Event) => {
    e.preventDefault();
    setAsked(address.trim());
  };
  return (
    <section class="listener" aria-labelledby="listener-title">
      <h2 id="listener-title">Passive listener (mDNS, SSDP)</h2>
      {status.error !== undefined && <Notice kind="error">{messageOf(status.error)}</Notice>}
      {s && (
        <dl class="fields" aria-label="Listener status">
          <div>
            <dt>State</dt>
            <dd>{!s.enabled ? "Off (setting discovery_listener_enabled)" : s.listening ? "Listening" : "Enabled, not listening"}</dd>
          </div>
          <div>
            <dt>Interfaces</dt>
            <dd>{s.interfaces.join(", ") || "none set"}</dd>
          </div>
          <div>
            <dt>Groups joined</dt>
            <dd>{s.groups.join(", ") || "none"}</dd>
          </div>
          {(["mdns", "ssdp"] as const).map((p) => (
            <div key={p}>
              <dt>{LABEL[p]} packets</dt>
              <dd>
                {s.counts[p].packets} received, {s.counts[p].accepted} accepted, {s.counts[p].malformed} malformed,{" "}
                {s.counts[p].rate_limited} over the rate cap
              </dd>
            </div>
          ))}
          <div>
            <dt>Last packet</dt>
            <dd>
              <RelativeTime at={s.last_packet_at} empty="none yet" />
            </dd>
          </div>
          <div>
            <dt>Events kept</dt>
            <dd>
              {s.events_stored} (at most {s.limits.max_stored_events}, {s.limits.retention_days} days)
            </dd>
          </div>
        </dl>
      )}
      {s && s.errors.length > 0 && (
        <ul class="listener-errors" aria-label="Listener errors">
          {s.errors.map((e, i) => (
            <li key={i}>
              <time dateTime={e.at}>{new Date(e.at).toLocaleTimeString()}</time> {e.message}
            </li>
          ))}
        </ul>
      )}
      <form class="page-head" onSubmit={filter} aria-label="Filter heard events">
        <h3 id="listener-events-title">Heard</h3>
        <label class="filter">
          Protocol
          <select value={protocol} onChange={(e) => setProtocol((e.currentTarget as HTMLSelectElement).value as Protocol)}>
            {PROTOCOLS.map((p) => (
              <option key={p} value={p}>
                {LABEL[p]}
              </option>
            ))}
          </select>
        </label>
        <label class="filter">
          Address
          <input value={address} placeholder="192.168.1.20" onInput={(e) => setAddress((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {events.error !== undefined && <Notice kind="error">{messageOf(events.error)}</Notice>}
      <div class="table-wrap">
        <table aria-labelledby="listener-events-title">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Protocol</th>
              <th scope="col">Address</th>
              <th scope="col">Host name</th>
              <th scope="col">Services</th>
              <th scope="col">Device</th>
            </tr>
          </thead>
          <tbody>
            {events.data?.items.map((e) => (
              <tr key={e.id}>
                <td data-label="Time">
                  <time dateTime={e.received_at}>{new Date(e.received_at).toLocaleTimeString()}</time>
                </td>
                <td data-label="Protocol">
                  {LABEL[e.protocol as Protocol] ?? e.protocol} {e.kind}
                </td>
                <td data-label="Address">{e.address ?? e.source}</td>
                <td data-label="Host name">{e.hostname ?? "—"}</td>
                <td data-label="Services">
                  {e.services.map((x) => (x.port ? `${x.type} ${x.port}/${x.protocol}` : x.type)).join(", ") || "—"}
                </td>
                <td data-label="Device">
                  {[e.vendor, e.model, e.serial_number ? `serial ${e.serial_number}` : null].filter(Boolean).join(" ") || "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {events.data?.items.length === 0 && <p class="empty">Nothing heard{protocol || asked ? " that matches" : " yet"}.</p>}
        {events.data && events.data.total > events.data.items.length && (
          <p class="meta">
            The newest {events.data.items.length} of {events.data.total} are shown.
          </p>
        )}
      </div>
    </section>
  );
}
