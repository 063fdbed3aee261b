// What an SVG badge says and in which colour (docs/adr/0455), after the shields.io conventions, so a
// badge of ours reads like every other badge in a README. Pure: a monitor's badge and a status page
// item's read their facts each their own way and share these.

/** The shields.io palette (its named colours, as hex). */
export const BADGE_COLORS = {
  brightgreen: "#4c1",
  green: "#97ca00",
  yellowgreen: "#a4a61d",
  yellow: "#dfb317",
  orange: "#fe7d37",
  red: "#e05d44",
  blue: "#007ec6",
  lightgrey: "#9f9f9f",
} as const;

/** The checks that record a certificate's days left (cert_days_remaining samples): they have a cert-expiry badge. */
export const CERT_CHECK_TYPES: readonly string[] = ["http", "tls", "smtp", "grpc"];

export type BadgeColor = (typeof BADGE_COLORS)[keyof typeof BADGE_COLORS];

export interface BadgeValue {
  message: string;
  color: BadgeColor;
}

export const NO_DATA: BadgeValue = { message: "no data", color: BADGE_COLORS.lightgrey };

/** A monitor's state as a badge: a paused monitor says paused whatever its last status was. */
export function statusValue(status: string, enabled: boolean): BadgeValue {
  if (!enabled) return { message: "paused", color: BADGE_COLORS.lightgrey };
  switch (status) {
    case "up":
      return { message: "up", color: BADGE_COLORS.brightgreen };
    case "down":
      return { message: "down", color: BADGE_COLORS.red };
    case "degraded":
      return { message: "degraded", color: BADGE_COLORS.yellow };
    case "maintenance":
      return { message: "maintenance", color: BADGE_COLORS.blue };
    default:
      return { message: "pending", color: BADGE_COLORS.lightgrey };
  }
}

/** A status page item's judged state (docs/adr/0461): like a monitor's, and unknown (no active monitor, none checked) in grey. */
export function itemStatusValue(state: "up" | "degraded" | "down" | "maintenance" | "unknown"): BadgeValue {
  return state === "unknown" ? { message: "unknown", color: BADGE_COLORS.lightgrey } : statusValue(state, true);
}

/** shields' uptime steps: 99.9 and over brightgreen, then green, yellowgreen, yellow, orange, red. */
export function uptimeColor(pct: number): BadgeColor {
  if (pct >= 99.9) return BADGE_COLORS.brightgreen;
  if (pct >= 99) return BADGE_COLORS.green;
  if (pct >= 97) return BADGE_COLORS.yellowgreen;
  if (pct >= 95) return BADGE_COLORS.yellow;
  if (pct >= 90) return BADGE_COLORS.orange;
  return BADGE_COLORS.red;
}

/** Up to 2 decimals, cut rather than rounded so that 99.999 % never reads "100%"; trailing zeros dropped. */
export function formatPct(pct: number): string {
  const cut = Math.floor(pct * 100 + 1e-9) / 100;
  return `${Number(cut.toFixed(2))}%`;
}

/** `up` of `total` checks; no checks in the window is "no data". */
export function uptimeValue(up: number, total: number): BadgeValue {
  if (total <= 0) return NO_DATA;
  const pct = (up / total) * 100;
  return { message: formatPct(pct), color: uptimeColor(pct) };
}

/** Average response time: under 200 ms brightgreen, 500 green, 1 s yellow, 2 s orange, else red. */
export function responseTimeColor(ms: number): BadgeColor {
  if (ms < 200) return BADGE_COLORS.brightgreen;
  if (ms < 500) return BADGE_COLORS.green;
  if (ms < 1000) return BADGE_COLORS.yellow;
  if (ms < 2000) return BADGE_COLORS.orange;
  return BADGE_COLORS.red;
}

export function responseTimeValue(ms: number | null): BadgeValue {
  if (ms == null) return NO_DATA;
  return { message: `${Math.round(ms)} ms`, color: responseTimeColor(ms) };
}

/** Days a certificate has left: expired or 7 and fewer red, 14 orange, 30 yellow, else brightgreen. */
export function certExpiryColor(days: number): BadgeColor {
  if (days <= 7) return BADGE_COLORS.red;
  if (days <= 14) return BADGE_COLORS.orange;
  if (days <= 30) return BADGE_COLORS.yellow;
  return BADGE_COLORS.brightgreen;
}

export function certExpiryValue(days: number | null): BadgeValue {
  if (days == null) return NO_DATA;
  if (days < 0) return { message: "expired", color: BADGE_COLORS.red };
  return { message: days === 1 ? "1 day" : `${days} days`, color: certExpiryColor(days) };
}
