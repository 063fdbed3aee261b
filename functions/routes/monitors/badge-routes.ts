// [monitors] public SVG badges (docs/adr/0455): GET /badges/monitors/{monitor_id}/status.svg, uptime.svg,
// response-time.svg and cert-expiry.svg, without a credential, for monitors made badge-public or listed as
// a monitor item on a published status page (docs/adr/0461). Any other id answers one 404 body, whether
// the monitor exists or not.
import type { Hono } from "hono";
import { BadgeParams } from "../../../shared/schemas/badges.ts";
import { monitorBadgeFacts } from "../../../shared/verbs/monitors/badge-facts.ts";
import { registerBadgeRoutes } from "../../badges/badge-routes.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";

export function badgeRoutes(app: Hono<AppEnv>): void {
  registerBadgeRoutes(app, {
    base: "/api/v1/badges/monitors/:monitor_id",
    tag: "monitors",
    params: BadgeParams,
    summaries: {
      status: "A monitor's status badge: up, down, degraded, maintenance, pending or paused",
      uptime: "A monitor's uptime badge over 24h, 7d or 30d, coloured by shields.io's uptime steps",
      "response-time": "A monitor's average response time badge (successful checks) over 24h, 7d or 30d",
      "cert-expiry": "A monitor's certificate badge: the days its certificate has left (http, tls, smtp, grpc checks)",
    },
    description:
      "Public: an SVG badge (shields.io's look) of a monitor made badge-public (`badge_public`) or listed as a monitor item on a published status page; any other id, existing or not, answers the same 404. `label` replaces the left-hand text (escaped; empty for none), `style` is flat or flat-square. Cached for 60 s (`Cache-Control: public, max-age=60`), with an ETag (304 on If-None-Match).",
    facts: (c, params, kind, period) => monitorBadgeFacts({ ctx: verbContext(c), input: { id: params.monitor_id, kind, period } }),
  });
}
