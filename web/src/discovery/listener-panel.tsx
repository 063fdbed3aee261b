// The passive mDNS/SSDP listener on the discovery screen (issue 28): its status (GET /discovery/listener/status:
// setting, sockets, groups, packets per protocol, last packet, errors) and what it heard (GET
// /discovery/listener/events, newest first, filtered by protocol and address), both reloaded when the
// discovery stream reports new events (`refresh` changes). What it hears also becomes results of the day's
// "Passive listener" scan above, reviewed like any scan's.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { RelativeTime } from "../components/time.tsx";

const PROTOCOLS = ["", "mdns", "ssdp"] as const;
type Protocol = (typeof PROTOCOLS)[number];
// mDNS and SSDP are protocol names, the same in every language.
const LABEL: Record<Protocol, string> = { "": i18nKey("discovery:listener.all"), mdns: "mDNS", ssdp: "SSDP" };

export function ListenerPanel({ refresh }: { refresh: number }) {
  const t = useT();
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
      <h2 id="listener-title">{t("discovery:listener.title")}</h2>
      {status.error !== undefined && <Notice kind="error">{messageOf(status.error)}</Notice>}
      {s && (
        <dl class="fields" aria-label={t("discovery:listener.status")}>
          <div>
            <dt>{t("discovery:listener.state")}</dt>
            <dd>
              {!s.enabled
                ? t("discovery:listener.off")
                : s.listening
                  ? t("discovery:listener.listening")
                  : t("discovery:listener.notListening")}
            </dd>
          </div>
          <div>
            <dt>{t("discovery:listener.interfaces")}</dt>
            <dd>{s.interfaces.join(", ") || t("discovery:listener.noneSet")}</dd>
          </div>
          <div>
            <dt>{t("discovery:listener.groups")}</dt>
            <dd>{s.groups.join(", ") || t("discovery:listener.none")}</dd>
          </div>
          {(["mdns", "ssdp"] as const).map((p) => (
            <div key={p}>
              <dt>{t("discovery:listener.packets", { protocol: LABEL[p] })}</dt>
              <dd>
                {t("discovery:listener.packetCounts", {
                  received: s.counts[p].packets,
                  accepted: s.counts[p].accepted,
                  malformed: s.counts[p].malformed,
                  limited: s.counts[p].rate_limited,
                })}
              </dd>
            </div>
          ))}
          <div>
            <dt>{t("discovery:listener.lastPacket")}</dt>
            <dd>
              <RelativeTime at={s.last_packet_at} empty={t("discovery:listener.noneYet")} />
            </dd>
          </div>
          <div>
            <dt>{t("discovery:listener.eventsKept")}</dt>
            <dd>
              {t("discovery:listener.eventsCount", {
                stored: s.events_stored,
                max: s.limits.max_stored_events,
                count: s.limits.retention_days,
              })}
            </dd>
          </div>
        </dl>
      )}
      {s && s.errors.length > 0 && (
        <ul class="listener-errors" aria-label={t("discovery:listener.errors")}>
          {s.errors.map((e, i) => (
            <li key={i}>
              <time dateTime={e.at}>{new Date(e.at).toLocaleTimeString()}</time> {e.message}
            </li>
          ))}
        </ul>
      )}
      <form class="page-head" onSubmit={filter} aria-label={t("discovery:listener.filterLabel")}>
        <h3 id="listener-events-title">{t("discovery:listener.heard")}</h3>
        <label class="filter">
          {t("discovery:listener.protocol")}
          <select value={protocol} onChange={(e) => setProtocol((e.currentTarget as HTMLSelectElement).value as Protocol)}>
            {PROTOCOLS.map((p) => (
              <option key={p} value={p}>
                {t(LABEL[p])}
              </option>
            ))}
          </select>
        </label>
        <label class="filter">
          {t("discovery:col.address")}
          <input value={address} placeholder="192.168.1.20" onInput={(e) => setAddress((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <button type="submit">{t("discovery:listener.filter")}</button>
      </form>
      {events.error !== undefined && <Notice kind="error">{messageOf(events.error)}</Notice>}
      <div class="table-wrap">
        <table aria-labelledby="listener-events-title">
          <thead>
            <tr>
              <th scope="col">{t("discovery:listener.time")}</th>
              <th scope="col">{t("discovery:listener.protocol")}</th>
              <th scope="col">{t("discovery:col.address")}</th>
              <th scope="col">{t("discovery:col.hostname")}</th>
              <th scope="col">{t("discovery:listener.services")}</th>
              <th scope="col">{t("discovery:col.device")}</th>
            </tr>
          </thead>
          <tbody>
            {events.data?.items.map((e) => (
              <tr key={e.id}>
                <td data-label={t("discovery:listener.time")}>
                  <time dateTime={e.received_at}>{new Date(e.received_at).toLocaleTimeString()}</time>
                </td>
                <td data-label={t("discovery:listener.protocol")}>
                  {LABEL[e.protocol as Protocol] ? t(LABEL[e.protocol as Protocol]) : e.protocol} {e.kind}
                </td>
                <td data-label={t("discovery:col.address")}>{e.address ?? e.source}</td>
                <td data-label={t("discovery:col.hostname")}>{e.hostname ?? "—"}</td>
                <td data-label={t("discovery:listener.services")}>
                  {e.services.map((x) => (x.port ? `${x.type} ${x.port}/${x.protocol}` : x.type)).join(", ") || "—"}
                </td>
                <td data-label={t("discovery:col.device")}>
                  {[e.vendor, e.model, e.serial_number ? t("discovery:serial", { serial: e.serial_number }) : null]
                    .filter(Boolean)
                    .join(" ") || "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {events.data?.items.length === 0 && (
          <p class="empty">{protocol || asked ? t("discovery:listener.noneMatch") : t("discovery:listener.noneHeard")}</p>
        )}
        {events.data && events.data.total > events.data.items.length && (
          <p class="meta">{t("discovery:listener.newest", { shown: events.data.items.length, total: events.data.total })}</p>
        )}
      </div>
    </section>
  );
}
