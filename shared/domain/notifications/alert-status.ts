// Where an alert stands in the life of the problem it reports (docs/adr/0442-alert-lifecycle.md): a
// `firing` alert opens (or continues) an incident, a `resolved` one ends it, an `event` is neither (a
// test, a drift, a CVE finding). Providers with a resolve concept (PagerDuty, Opsgenie, ...) send a
// resolve for `resolved` with the same `dedup_key` the firing alert carried.
export type AlertStatus = "firing" | "resolved" | "event";

const FIRING = new Set(["monitor.down", "monitor.degraded", "metric.firing"]);
const RESOLVED = new Set(["monitor.up", "metric.cleared"]);

export const alertStatusOf = (kind: string): AlertStatus => (FIRING.has(kind) ? "firing" : RESOLVED.has(kind) ? "resolved" : "event");

/**
 * The subject an alert is about, the same for its firing and its recovery: a monitor, or a threshold
 * rule on one node. Null for an event (it has no recovery).
 */
export function alertSubject(a: {
  kind: string;
  monitor_id: number | null;
  target_id: number | null;
  detail: Record<string, unknown>;
}): string | null {
  if (alertStatusOf(a.kind) === "event") return null;
  if (a.monitor_id != null) return `monitor:${a.monitor_id}`;
  const rule = a.detail.rule_id;
  if (typeof rule === "number" && a.target_id != null) return `rule:${rule}:hardware:${a.target_id}`;
  return null;
}

/** The key a paging service deduplicates and resolves by: the incident's, or the alert's own for an event. */
export const dedupKeyOf = (a: { id: number; incident_id: number | null }): string =>
  a.incident_id != null ? `ctl-incident-${a.incident_id}` : `ctl-alert-${a.id}`;
