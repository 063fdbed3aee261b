// [monitors] public SVG badges (docs/adr/0455): GET /badges/monitors/{monitor_id}/status.svg, uptime.svg,
// response-time.svg and cert-expiry.svg, without a credential, for monitors made badge-public. Any other
// id answers one 404 body, whether the monitor exists or not.
import type { Hono } from "hono";
import {
  BadgeParams,
  type BadgeKind,
  BadgePeriodQuery,
  type BadgePeriod,
  BadgeQuery,
  type BadgeQueryOutput,
} from "../../../shared/schemas/badges.ts";
import { monitorBadgeFacts } from "../../../shared/verbs/monitors/badge-facts.ts";
import { renderBadge } from "../../badges/render.ts";
import { badgeResponse } from "../../badges/respond.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BADGES: { kind: BadgeKind; summary: string; periods: boolean }[] = [
  { kind: "status", summary: "A monitor's status badge: up, down, degraded, maintenance, pending or paused", periods: false },
  { kind: "uptime", summary: "A monitor's uptime badge over 24h, 7d or 30d, coloured by shields.io's uptime steps", periods: true },
  { kind: "response-time", summary: "A monitor's average response time badge (successful checks) over 24h, 7d or 30d", periods: true },
  {
    kind: "cert-expiry",
    summary: "A monitor's certificate badge: the days its certificate has left (http, tls, smtp, grpc checks)",
    periods: false,
  },
];

const DESCRIPTION =
  "Public: an SVG badge (shields.io's look) of a monitor made badge-public (`badge_public`); any other id, existing or not, answers the same 404. `label` replaces the left-hand text (escaped; empty for none), `style` is flat or flat-square. Cached for 60 s (`Cache-Control: public, max-age=60`), with an ETag (304 on If-None-Match).";

export function badgeRoutes(app: Hono<AppEnv>): void {
  for (const b of BADGES) {
    route(
      app,
      {
        method: "get",
        path: `/api/v1/badges/monitors/:monitor_id/${b.kind}.svg`,
        tag: "monitors",
        auth: "public",
        params: BadgeParams,
        query: b.periods ? BadgePeriodQuery : BadgeQuery,
        response: { contentType: "image/svg+xml", description: "The badge (SVG)" },
        errors: [404],
        summary: b.summary,
        description: DESCRIPTION,
      },
      async (c, { params, query }) => {
        const q = query as BadgeQueryOutput & { period?: BadgePeriod };
        const facts = await monitorBadgeFacts({
          ctx: verbContext(c),
          input: { id: params.monitor_id, kind: b.kind, period: q.period ?? "24h" },
        });
        return badgeResponse(c, renderBadge({ ...facts, label: q.label ?? facts.label, style: q.style }));
      },
    );
  }
}
