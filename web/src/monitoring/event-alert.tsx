// What became of the alert an event raised (the event's `alert`, GET /monitors/{id}/events): sent and
// delivered, still on its way, failed, or kept back (flapping, no route, an acknowledged incident), as a
// link to its incident's page. A folded alert is shown by upstream.tsx instead.
import { i18nKey, t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import type { MonitorEvent } from "./upstream.tsx";

type EventAlertShape = NonNullable<MonitorEvent["alert"]>;

const KEPT: Record<string, string> = {
  waiting: i18nKey("monitoring:eventAlert.waiting"),
  suppressed: i18nKey("monitoring:eventAlert.suppressed"),
  debounced: i18nKey("monitoring:eventAlert.debounced"),
  unrouted: i18nKey("monitoring:eventAlert.unrouted"),
  in_hand: i18nKey("monitoring:eventAlert.inHand"),
};

/** The alert's fate in words: its deliveries once dispatched, else why it was not (yet) sent. */
export function eventAlertText(a: EventAlertShape): string {
  if (a.dispatch_state !== "dispatched") {
    const kept = KEPT[a.dispatch_state];
    return kept ? t(kept) : a.dispatch_state;
  }
  const { total, delivered, pending, dead } = a.deliveries;
  if (total === 0) return t("monitoring:eventAlert.noSink");
  const parts = [
    delivered > 0 ? t("monitoring:eventAlert.delivered", { delivered, count: total }) : "",
    pending > 0 ? t("monitoring:eventAlert.pending", { count: pending }) : "",
    dead > 0 ? t("monitoring:eventAlert.dead", { count: dead }) : "",
  ].filter(Boolean);
  const text = parts.join(", ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function EventAlert({ alert }: { alert: EventAlertShape }) {
  useT();
  return <Link href={`/alerts/${alert.incident_id ?? alert.id}`}>{eventAlertText(alert)}</Link>;
}
