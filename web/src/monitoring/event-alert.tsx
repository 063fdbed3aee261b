// What became of the alert an event raised (the event's `alert`, GET /monitors/{id}/events): sent and
// delivered, still on its way, failed, or kept back (flapping, no route, an acknowledged incident), as a
// link to its incident's page. A folded alert is shown by upstream.tsx instead.
import { Link } from "../router.tsx";
import type { MonitorEvent } from "./upstream.tsx";

type EventAlertShape = NonNullable<MonitorEvent["alert"]>;

const KEPT: Record<string, string> = {
  waiting: "Waiting to be sent",
  suppressed: "Folded into another alert",
  debounced: "Not sent: the monitor is flapping",
  unrouted: "Not sent: no notification route matched",
  in_hand: "Not sent: the incident is acknowledged",
};

/** The alert's fate in words: its deliveries once dispatched, else why it was not (yet) sent. */
export function eventAlertText(a: EventAlertShape): string {
  if (a.dispatch_state !== "dispatched") return KEPT[a.dispatch_state] ?? a.dispatch_state;
  const { total, delivered, pending, dead } = a.deliveries;
  if (total === 0) return "Sent to no sink";
  const parts = [
    delivered > 0 ? `delivered to ${delivered} of ${total} ${total === 1 ? "sink" : "sinks"}` : "",
    pending > 0 ? `${pending} on the way` : "",
    dead > 0 ? `${dead} failed` : "",
  ].filter(Boolean);
  const text = parts.join(", ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function EventAlert({ alert }: { alert: EventAlertShape }) {
  return <Link href={`/alerts/${alert.incident_id ?? alert.id}`}>{eventAlertText(alert)}</Link>;
}
