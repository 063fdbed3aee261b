// Why a monitor's down alert was not sent on its own: the delivery worker folded it into the alert of an
// upstream that was down first (a node whose blast radius holds this monitor's target). Names and links
// the upstream monitor and the node it watches, from the event's `upstream` (GET /monitors/{id}/events);
// on the upstream's side, which monitors were folded into its alert (`suppressed_dependents`).
import type { paths } from "../api/client.ts";
import { Status } from "../components/status.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { TargetLink } from "./target-link.tsx";

export type MonitorEvent =
  paths["/api/v1/monitors/{monitor_id}/events"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Upstream = NonNullable<MonitorEvent["upstream"]>;

export function UpstreamCause({ upstream }: { upstream: Upstream | null }) {
  const t = useT();
  if (!upstream) return <span>{t("monitoring:upstream.gone")}</span>;
  const m = upstream.monitor;
  return (
    <span class="upstream">
      {t("monitoring:upstream.upstream")}{" "}
      {m ? (
        <Link href={`/monitors/${m.id}`}>{m.name ?? t("monitoring:upstream.deleted", { id: m.id })}</Link>
      ) : (
        t("monitoring:upstream.aNode")
      )}
      {upstream.target && (
        <>
          {" "}
          {t("monitoring:upstream.on")} <TargetLink type={upstream.target.type} id={upstream.target.id} name={upstream.target.name} />
        </>
      )}{" "}
      {t("monitoring:upstream.wasDown")}
      {m?.status && (
        <>
          {" "}
          {t("monitoring:upstream.itIs")} <Status value={m.status} />
          {t("monitoring:upstream.now")}
        </>
      )}
    </span>
  );
}

/** The other side: the monitors whose down alerts were folded into this monitor's, each a link. */
export function FoldedDependents({ monitors }: { monitors: MonitorEvent["suppressed_dependents"] }) {
  const t = useT();
  return (
    <span class="folded">
      {t("monitoring:upstream.behind", { count: monitors.length })}{" "}
      {monitors.map((m, i) => (
        <span key={m.id}>
          {i > 0 && ", "}
          <Link href={`/monitors/${m.id}`}>{m.name ?? t("monitoring:upstream.deleted", { id: m.id })}</Link>
        </span>
      ))}
    </span>
  );
}
