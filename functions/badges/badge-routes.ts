// Registers one subject's four SVG badge routes (docs/adr/0455, 0461): `<base>/status.svg`, `uptime.svg`,
// `response-time.svg` and `cert-expiry.svg`, public, with `label`, `style` and (for the window badges)
// `period`, drawn by renderBadge and answered by badgeResponse. A monitor and a status page item differ
// only in their path, their summaries and the verb that reads their facts.
import type { Context, Hono } from "hono";
import type * as v from "valibot";
import {
  BADGE_KINDS,
  type BadgeKind,
  BadgePeriodQuery,
  type BadgePeriod,
  BadgeQuery,
  type BadgeQueryOutput,
} from "../../shared/schemas/badges.ts";
import type { BadgeFacts } from "../../shared/verbs/monitors/badge-facts.ts";
import type { AppEnv } from "../deps.ts";
import { route } from "../openapi/route.ts";
import type { Tag } from "../openapi/tags.ts";
import { renderBadge } from "./render.ts";
import { badgeResponse } from "./respond.ts";

const WINDOWED: readonly BadgeKind[] = ["uptime", "response-time"];

export interface BadgeRoutesSpec<P extends v.GenericSchema> {
  /** Hono path up to the badge's file name, e.g. `/api/v1/badges/monitors/:monitor_id`. */
  base: string;
  tag: Tag;
  params: P;
  summaries: Record<BadgeKind, string>;
  description: string;
  facts: (c: Context<AppEnv>, params: v.InferOutput<P>, kind: BadgeKind, period: BadgePeriod) => Promise<BadgeFacts>;
}

export function registerBadgeRoutes<P extends v.GenericSchema>(app: Hono<AppEnv>, spec: BadgeRoutesSpec<P>): void {
  for (const kind of BADGE_KINDS) {
    const periods = WINDOWED.includes(kind);
    route(
      app,
      {
        method: "get",
        path: `${spec.base}/${kind}.svg`,
        tag: spec.tag,
        auth: "public",
        params: spec.params,
        query: periods ? BadgePeriodQuery : BadgeQuery,
        response: { contentType: "image/svg+xml", description: "The badge (SVG)" },
        errors: [404],
        summary: spec.summaries[kind],
        description: spec.description,
      },
      async (c, { params, query }) => {
        const q = query as BadgeQueryOutput & { period?: BadgePeriod };
        const facts = await spec.facts(c, params as v.InferOutput<P>, kind, q.period ?? "24h");
        return badgeResponse(c, renderBadge({ ...facts, label: q.label ?? facts.label, style: q.style }));
      },
    );
  }
}
