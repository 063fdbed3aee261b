// An agent's events (GET /agents/{id}/events): approvals, links, revokes, grant changes, newest first, a
// page at a time; read again when `version` changes (the live agents stream said something about it).
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { useLoad } from "../use-load.ts";
import { RelativeTime } from "../components/time.tsx";

const PAGE = 20;

export function AgentEvents({ agentId, version }: { agentId: number; version: number }) {
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
      <h2 id="agent-events-title">Events</h2>
      {events.error !== undefined && <Notice kind="error">{messageOf(events.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Events of this agent, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {events.data?.items.map((e) => (
              <tr key={e.id} data-event={e.event_type}>
                <td data-label="When">
                  <RelativeTime at={e.created_at} />
                </td>
                <td data-label="Event">{e.event_type.replaceAll("_", " ")}</td>
                <td data-label="Detail">
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
        {events.data?.items.length === 0 && <p class="empty">No events yet.</p>}
      </div>
      {events.data && <Pager offset={offset} limit={PAGE} total={events.data.total} onOffset={setOffset} label="Pages of events" />}
    </section>
  );
}
