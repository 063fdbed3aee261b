// Why a monitor's down alert was not sent on its own: the delivery worker folded it into the alert of an
// upstream that was down first (a node whose blast radius holds this monitor's target). Names and links
// the upstream monitor and the node it watches, from the event's `upstream` (GET /monitors/{id}/events);
// on the upstream's side, which monitors were folded into its alert (`suppressed_dependents`).
import type { paths } from "../api/client.ts";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { TargetLink } from "./target-link.tsx";

export type MonitorEvent =
  paths["/api/v1/monitors/{monitor_id}/events"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Upstream = NonNullable<MonitorEvent["upstream"]>;

export function UpstreamCause({ upstream }: { upstream: Upstream | null }) {
  if (!upstream) return <span>folded into an alert that no longer exists</span>;
  const m = upstream.monitor;
  return (
    <span class="upstream">
      upstream {m ? <Link href={`/monitors/${m.id}`}>{m.name ?? `monitor #${m.id} (deleted)`}</Link> : "a node"}
      {upstream.target && (
        <>
          {" "}
          on <TargetLink type={upstream.target.type} id={upstream.target.id} name={upstream.target.name} />
        </>
      )}{" "}
      was down
      {m?.status && (
        <>
          {" "}
          (it is <Status value={m.status} /> now)
        </>
      )}
    </span>
  );
}

/** The other side: the monitors whose down alerts were folded into this monitor's, each a link. */
export function FoldedDependents({ monitors }: { monitors: MonitorEvent["suppressed_dependents"] }) {
  return (
    <span class="folded">
      {monitors.length} {monitors.length === 1 ? "monitor" : "monitors"} behind it:{" "}
      {monitors.map((m, i) => (
        <span key={m.id}>
          {i > 0 && ", "}
          <Link href={`/monitors/${m.id}`}>{m.name ?? `monitor #${m.id} (deleted)`}</Link>
        </span>
      ))}
    </span>
  );
}
