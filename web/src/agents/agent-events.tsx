// An agent's events (GET /agents/{id}/events): approvals, links, revokes, grant changes, newest first, a
// page at a time; read again when `version` changes (the live agents stream said something about it).
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { useLoad } from "../use-load.ts";
import { RelativeTime } from "../components/time.tsx";
import { useT } from "../i18n/use-t.ts";

const PAGE = 20;

export function AgentEvents({ agentId, version }: { agentId: number; version: number }) {
  const t = useT();
  const [offset, setOffset] = useState(0);
  const events = useLoad(
    () =>
      ok(
        api.GET("/api/v1/agents/{agent_id}/events", {
          params: { path: { agent_id: String(agentId) }, query: { limit: String(PAGE), offset: String(offset) } },
        }),
      ),
    [agentId, offset, version],
  );
  return (
    <section aria-labelledby="agent-events-title">
      <h2 id="agent-events-title">{t("agents:events.title")}</h2>
      {events.error !== undefined && <Notice kind="error">{messageOf(events.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t("agents:events.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("agents:events.when")}</th>
              <th scope="col">{t("agents:events.event")}</th>
              <th scope="col">{t("agents:events.detail")}</th>
            </tr>
          </thead>
          <tbody>
            {events.data?.items.map((e) => (
              <tr key={e.id} data-event={e.event_type}>
                <td data-label={t("agents:events.when")}>
                  <RelativeTime at={e.created_at} />
                </td>
                <td data-label={t("agents:events.event")}>{e.event_type.replaceAll("_", " ")}</td>
                <td data-label={t("agents:events.detail")}>
                  <code class="detail">
                    {e.detail
                      ? Object.entries(e.detail)
                          .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
                          .join("; ")
                      : "—"}
                  </code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {events.data?.items.length === 0 && <p class="empty">{t("agents:events.none")}</p>}
      </div>
      {events.data && (
        <Pager offset={offset} limit={PAGE} total={events.data.total} onOffset={setOffset} label={t("agents:events.pages")} />
      )}
    </section>
  );
}
