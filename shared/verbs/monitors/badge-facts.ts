// What a monitor's public SVG badge says (docs/adr/0455): anyone may ask, and only a monitor made
// badge-public, or listed as a monitor item on a published status page (docs/adr/0461), answers; any
// other id (private, missing, malformed) is the one 404 below, the same body whichever, so badges tell
// nobody which monitors exist. One small read per badge: the row, then one window of buckets or samples.
import { type BadgeValue, CERT_CHECK_TYPES, statusValue } from "../../domain/badges/badge-values.ts";
import { ApiError } from "../../errors.ts";
import type { BadgeKind, BadgePeriod } from "../../schemas/badges.ts";
import { DEFAULT_LABELS, windowBadgeValue } from "../badges/window-values.ts";
import { listedOnPublishedPages } from "../status-pages/listed-monitors.ts";
import { defineRead } from "../verb.ts";
import { findMonitor } from "./monitor-row.ts";

export const BADGE_NOT_FOUND = "No such badge.";
export const badgeNotFound = () => new ApiError("RESOURCE_NOT_FOUND", BADGE_NOT_FOUND);

const MAX_ID = 2_147_483_647;

export interface BadgeFacts extends BadgeValue {
  /** The left-hand text when the request names none: generic, never the monitor's name (it may be internal). */
  label: string;
}

export interface BadgeInput {
  /** The path's id as sent. */
  id: string;
  kind: BadgeKind;
  period: BadgePeriod;
}

export const monitorBadgeFacts = defineRead<BadgeInput, BadgeFacts>({ scope: "public" }, async (ctx, { id: raw, kind, period }) => {
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 0;
  const row = id > 0 && id <= MAX_ID ? await findMonitor(ctx.db, id) : undefined;
  if (!row || !(row.badge_public || (await listedOnPublishedPages(ctx.db, [id])).has(id))) throw badgeNotFound();
  if (kind === "cert-expiry" && !CERT_CHECK_TYPES.includes(row.check_type)) throw badgeNotFound();
  const label = DEFAULT_LABELS[kind](period);
  if (kind === "status") return { label, ...statusValue(row.status, row.enabled) };
  return { label, ...(await windowBadgeValue(ctx.db, [id], kind, period, ctx.clock.now())) };
});
