// What a status page item's public SVG badge says (docs/adr/0461): only an item of a *published* page
// answers; a draft's item, an unknown slug or key and a malformed one are the monitor badges' one 404,
// so nothing tells a draft exists. The item stands for its monitors (item-monitors.ts): its status is
// their judged state (the page's own), uptime sums their buckets, response time averages their
// successful checks, the certificate is the soonest to expire among those that record one.
import { and, eq, inArray } from "drizzle-orm";
import { monitors, statusPageItems, statusPageSections, statusPages } from "../../db/schema/index.ts";
import { CERT_CHECK_TYPES, itemStatusValue } from "../../domain/badges/badge-values.ts";
import { ITEM_KEY_PATTERN } from "../../domain/status-pages/item-keys.ts";
import { itemState } from "../../domain/status-pages/item-state.ts";
import type { BadgeKind, BadgePeriod } from "../../schemas/badges.ts";
import { DEFAULT_LABELS, windowBadgeValue } from "../badges/window-values.ts";
import { type BadgeFacts, badgeNotFound } from "../monitors/badge-facts.ts";
import { defineRead } from "../verb.ts";
import { itemMonitors } from "./item-monitors.ts";

export interface ItemBadgeInput {
  /** The page's slug and the item's key, as sent. */
  slug: string;
  key: string;
  kind: BadgeKind;
  period: BadgePeriod;
}

const SLUG = /^[a-z0-9-]{1,64}$/;

export const itemBadgeFacts = defineRead<ItemBadgeInput, BadgeFacts>({ scope: "public" }, async (ctx, input) => {
  const [slug, key] = [input.slug.toLowerCase(), input.key.toLowerCase()];
  if (!SLUG.test(slug) || !ITEM_KEY_PATTERN.test(key)) throw badgeNotFound();
  const [found] = await ctx.db
    .select({ item: statusPageItems })
    .from(statusPageItems)
    .innerJoin(statusPageSections, eq(statusPageSections.id, statusPageItems.section_id))
    .innerJoin(statusPages, eq(statusPages.id, statusPageSections.page_id))
    .where(and(eq(statusPages.slug, slug), eq(statusPages.published, true), eq(statusPageItems.key, key)))
    .limit(1);
  if (!found) throw badgeNotFound();
  const { item } = found;
  const members = (await itemMonitors(ctx.db, [item])).get(item.id) ?? [];
  // The public name is public by design (unlike a monitor's name): it is the default label.
  const name = item.public_name ?? item.tag ?? "";
  if (input.kind === "status") return { label: name, ...itemStatusValue(itemState(members.map((m) => m.status))) };
  const label = `${name} ${DEFAULT_LABELS[input.kind](input.period)}`;
  let ids = members.map((m) => m.id);
  if (input.kind === "cert-expiry") {
    const types =
      ids.length === 0
        ? []
        : await ctx.db.select({ id: monitors.id, type: monitors.check_type }).from(monitors).where(inArray(monitors.id, ids));
    const withCerts = types.filter((m) => CERT_CHECK_TYPES.includes(m.type));
    // Like a monitor's badge: no monitor of the item records a certificate, no such badge.
    if (withCerts.length === 0) throw badgeNotFound();
    ids = withCerts.map((m) => m.id);
  }
  return { label, ...(await windowBadgeValue(ctx.db, ids, input.kind, input.period, ctx.clock.now())) };
});
