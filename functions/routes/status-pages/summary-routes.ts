// [status-pages] GET /status-pages/{slug}/summary: the public JSON twin of a published status page
// (docs/adr/0454-status-pages.md). No credential; an unknown slug and a draft are the same 404.
import type { Hono } from "hono";
import { StatusPageSlugParam, StatusPageSummary } from "../../../shared/schemas/status-page-summary.ts";
import { statusPageSummary } from "../../../shared/verbs/status-pages/summary.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { cachedAnswer, STATUS_PAGE_MAX_AGE_S } from "./cached-answer.ts";
import { STATUS_PAGES_BASE } from "./page-routes.ts";

export function statusPageSummaryRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${STATUS_PAGES_BASE}/:slug/summary`,
      tag: "status-pages",
      auth: "public",
      params: StatusPageSlugParam,
      response: { schema: StatusPageSummary },
      errors: [404],
      summary: "A published status page's summary (public)",
      description:
        "No credential. The overall `state`, each section's items by their public names with their state, the availability (%) of each of the last 90 UTC days and of each of the last 24 hours (null: no check), " +
        "maintenance in progress or within a week (times and the public names of the items covered), `upstream_down` (the public name of a listed upstream that is down and explains an item's state) and, in a section that opts in, a monitor item's last `message`. " +
        `Nothing else: no ids, hosts or internal names. An unknown slug and a draft are the same 404. ETag, \`Cache-Control: public, max-age=${STATUS_PAGE_MAX_AGE_S}\`, 304 on If-None-Match.`,
    },
    async (c, { params }) =>
      cachedAnswer(c, JSON.stringify(await statusPageSummary({ ctx: verbContext(c), input: { slug: params.slug } })), "application/json"),
  );
}
