// The public SVG badges' routes (docs/adr/0455, 0461): GET /badges/monitors/{monitor_id}/<badge>.svg and
// /badges/status-pages/{slug}/items/{item_key}/<badge>.svg.
import * as v from "valibot";
import { oneOf } from "../domain/monitors/config-fields.ts";

export const BADGE_KINDS = ["status", "uptime", "response-time", "cert-expiry"] as const;
export type BadgeKind = (typeof BADGE_KINDS)[number];
export const BADGE_PERIODS = ["24h", "7d", "30d"] as const;
export type BadgePeriod = (typeof BADGE_PERIODS)[number];
export const BADGE_STYLES = ["flat", "flat-square"] as const;
export const BADGE_LABEL_MAX = 64;

// Text, not an id: a malformed or out-of-range id answers the one badge 404 like any other miss.
export const BadgeParams = v.object({ monitor_id: v.pipe(v.string(), v.maxLength(20)) });
// A status page item's badge (docs/adr/0461): the page's slug and the item's key, as text for the same reason
// (and unbounded here: the verb's patterns bound them, so an overlong one is the same 404, not a 422).
export const ItemBadgeParams = v.object({ slug: v.string(), item_key: v.string() });

export const BadgeQuery = v.object({
  label: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(BADGE_LABEL_MAX, `At most ${BADGE_LABEL_MAX} characters.`),
      v.description("The badge's left-hand text (shown as text, escaped); empty for none. Each badge has its own default."),
    ),
  ),
  style: v.optional(v.pipe(oneOf(BADGE_STYLES), v.description("flat (default, rounded) or flat-square")), "flat"),
});
export type BadgeQueryOutput = v.InferOutput<typeof BadgeQuery>;

export const BadgePeriodQuery = v.object({
  ...BadgeQuery.entries,
  period: v.optional(v.pipe(oneOf(BADGE_PERIODS), v.description("The window: 24h (default), 7d or 30d")), "24h"),
});
