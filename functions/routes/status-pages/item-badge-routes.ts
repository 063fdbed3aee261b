// [status-pages] public SVG badges of a status page item (docs/adr/0461):
// GET /badges/status-pages/{slug}/items/{item_key}/status.svg, uptime.svg, response-time.svg and
// cert-expiry.svg, without a credential, for the items of published pages. A draft's item, an unknown
// page or key answer the monitor badges' one 404.
import type { Hono } from "hono";
import { ItemBadgeParams } from "../../../shared/schemas/badges.ts";
import { itemBadgeFacts } from "../../../shared/verbs/status-pages/item-badge-facts.ts";
import { registerBadgeRoutes } from "../../badges/badge-routes.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";

export function itemBadgeRoutes(app: Hono<AppEnv>): void {
  registerBadgeRoutes(app, {
    base: "/api/v1/badges/status-pages/:slug/items/:item_key",
    tag: "status-pages",
    params: ItemBadgeParams,
    summaries: {
      status: "A status page item's status badge: up, degraded, down, maintenance or unknown, judged over its monitors",
      uptime: "A status page item's uptime badge over 24h, 7d or 30d: every check of its monitors",
      "response-time": "A status page item's average response time badge (its monitors' successful checks) over 24h, 7d or 30d",
      "cert-expiry": "A status page item's certificate badge: the days left of its soonest-expiring certificate",
    },
    description:
      "Public: an SVG badge (shields.io's look) of an item of a published status page, addressed by the page's slug and the item's `key` (from the page's read). A draft's item, an unknown page or key answer the same 404. The default label is the item's public name. `label` replaces it (escaped; empty for none), `style` is flat or flat-square. Cached for 60 s (`Cache-Control: public, max-age=60`), with an ETag (304 on If-None-Match).",
    facts: (c, params, kind, period) =>
      itemBadgeFacts({ ctx: verbContext(c), input: { slug: params.slug, key: params.item_key, kind, period } }),
  });
}
