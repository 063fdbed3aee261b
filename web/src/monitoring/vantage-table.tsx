// A multi-vantage monitor's points on its page (docs/adr/0441): each vantage point (the server, or an
// agent) with its last result, when it came, and whether it still counts in the quorum; an agent that
// could not take the last run says why (offline, at capacity...).
import type { paths } from "../api/schema.d.ts";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { RelativeTime } from "../components/time.tsx";

type VantageResult =
  paths["/api/v1/monitors/{monitor_id}"]["get"]["responses"][200]["content"]["application/json"]["vantage_results"][number];

export function VantageTable({ points, quorum }: { points: VantageResult[]; quorum: number | null }) {
  if (points.length === 0) return null;
  return (
    <section aria-labelledby="vantage-title" class="vantage-points">
      <h2 id="vantage-title">Vantage points</h2>
      <p class="meta">
        Down when at least {quorum} of {points.length} points report down within one interval; degraded when fewer do.
      </p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Each vantage point's last result</caption>
          <thead>
            <tr>
              <th scope="col">Point</th>
              <th scope="col">Status</th>
              <th scope="col">Last result</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.vantage} data-vantage={p.vantage}>
                <td data-label="Point">
                  {p.agent ? <Link href={`/agents/${p.agent.id}`}>{p.agent.name ?? `agent ${p.agent.id}`}</Link> : "the server"}
                </td>
                <td data-label="Status">
                  <Status value={p.status ?? "pending"} /> {p.status && !p.fresh && <span class="meta">stale, not counted</span>}
                </td>
                <td data-label="Last result">
                  {p.msg ?? "—"}
                  {p.latency_ms != null && <span class="meta"> ({Math.round(p.latency_ms)} ms)</span>}
                  {p.dispatch_status === "unavailable" && <span class="meta"> — last run not taken: {p.dispatch_reason}</span>}
                </td>
                <td data-label="When">
                  <RelativeTime at={p.checked_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
