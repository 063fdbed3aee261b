// Route severity is a floor, not an exact match (docs/adr/0111-notifications-delivery.md): the
// ladder info < warning < critical; `*` admits all; an unknown route threshold admits all; an unknown
// alert severity ranks as critical, so a typo can never silence an alert.
export const ROUTE_SEVERITIES = ["*", "info", "warning", "critical"] as const;
export type RouteSeverity = (typeof ROUTE_SEVERITIES)[number];

const RANK: Record<string, number> = { info: 0, warning: 1, critical: 2 };
const ALIASES: Record<string, string> = {
  warn: "warning",
  err: "critical",
  error: "critical",
  fatal: "critical",
  alert: "critical",
  emergency: "critical",
  debug: "info",
  notice: "info",
};

/** The alert's severity on the ladder (aliases folded; unknown ranks as critical). */
export function normalizeSeverity(severity: string): "info" | "warning" | "critical" {
  const s = severity.trim().toLowerCase();
  const name = ALIASES[s] ?? s;
  return (name in RANK ? name : "critical") as "info" | "warning" | "critical";
}

export function routeAdmits(routeSeverity: string, alertSeverity: string): boolean {
  const floor = RANK[routeSeverity];
  if (floor === undefined) return true;
  return RANK[normalizeSeverity(alertSeverity)]! >= floor;
}

/** `monitor.*` admits `monitor.down`; an empty list admits every kind. */
export function kindAdmitted(kinds: readonly string[], kind: string): boolean {
  if (kinds.length === 0) return true;
  return kinds.some((k) => k === "*" || k === kind || (k.endsWith(".*") && kind.startsWith(k.slice(0, -1))));
}
