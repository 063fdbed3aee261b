// [status-pages] GET /status-pages/{slug}/summary: the public JSON twin of a published status page
// (docs/adr/0454-status-pages.md), served from this process's page cache (docs/adr/0459). No
// credential; an unknown slug and a draft are the same 404.
import type { Hono } from "hono";
import { StatusPageSlugParam, StatusPageSummary } from "../../../shared/schemas/status-page-summary.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { answerWith, noSuchPage, STATUS_PAGE_CACHE_CONTROL, summaryJson } from "./cached-answer.ts";
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
        `Nothing else: no ids, hosts or internal names. An unknown slug and a draft are the same 404. ETag, \`Cache-Control: ${STATUS_PAGE_CACHE_CONTROL}\`, 304 on If-None-Match. ` +
        "Served from a cache that forgets the page on its state changes (within 60 s for the bars' time grain); not rate-limited.",
    },
    async (c, { params }) => {
      const page = await summaryJson(c, params.slug);
      if (!page.answer) throw noSuchPage();
      return answerWith(c, page.answer);
    },
  );
}
