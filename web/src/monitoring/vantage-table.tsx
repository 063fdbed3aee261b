// A multi-vantage monitor's points on its page (docs/adr/0441): each vantage point (the server, or an
// agent) with its last result, when it came, and whether it still counts in the quorum; an agent that
// could not take the last run says why (offline, at capacity...).
import type { paths } from "../api/schema.d.ts";
import { Status } from "../components/status.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { RelativeTime } from "../components/time.tsx";

type VantageResult =
  paths["/api/v1/monitors/{monitor_id}"]["get"]["responses"][200]["content"]["application/json"]["vantage_results"][number];

export function VantageTable({ points, quorum }: { points: VantageResult[]; quorum: number | null }) {
  const t = useT();
  if (points.length === 0) return null;
  return (
    <section aria-labelledby="vantage-title" class="vantage-points">
      <h2 id="vantage-title">{t("monitoring:vantage.title")}</h2>
      <p class="meta">{t("monitoring:vantage.rule", { quorum, count: points.length })}</p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t("monitoring:vantage.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("monitoring:vantage.point")}</th>
              <th scope="col">{t("monitoring:vantage.status")}</th>
              <th scope="col">{t("monitoring:vantage.lastResult")}</th>
              <th scope="col">{t("monitoring:events.when")}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.vantage} data-vantage={p.vantage}>
                <td data-label={t("monitoring:vantage.point")}>
                  {p.agent ? (
                    <Link href={`/agents/${p.agent.id}`}>{p.agent.name ?? t("monitoring:vantage.agent", { id: p.agent.id })}</Link>
                  ) : (
                    t("monitoring:vantage.server")
                  )}
                </td>
                <td data-label={t("monitoring:vantage.status")}>
                  <Status value={p.status ?? "pending"} />{" "}
                  {p.status && !p.fresh && <span class="meta">{t("monitoring:vantage.stale")}</span>}
                </td>
                <td data-label={t("monitoring:vantage.lastResult")}>
                  {p.msg ?? "—"}
                  {p.latency_ms != null && <span class="meta">{t("monitoring:vantage.latency", { ms: Math.round(p.latency_ms) })}</span>}
                  {p.dispatch_status === "unavailable" && (
                    <span class="meta">{t("monitoring:vantage.notTaken", { reason: p.dispatch_reason })}</span>
                  )}
                </td>
                <td data-label={t("monitoring:events.when")}>
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
