// [status-pages] GET /status-pages/{page_id}/preview: the page's HTML as the public would see it, drafts
// included, for the console's editor (docs/adr/0460-status-page-console.md). The public page's renderer and
// summary, read by id under read:status_pages; framed only by this origin, never cached.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { previewStatusPage } from "../../../shared/verbs/status-pages/preview.ts";
import { READ_STATUS_PAGES } from "../../../shared/verbs/status-pages/scopes.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { statusPageCsp } from "../../status-page/page-csp.ts";
import { renderStatusPage } from "../../status-page/render-page.ts";
import { STATUS_PAGES_BASE } from "./page-routes.ts";

export function statusPagePreviewRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${STATUS_PAGES_BASE}/:page_id/preview`,
      tag: "status-pages",
      scope: READ_STATUS_PAGES,
      params: IdParam("page_id"),
      response: { contentType: "text/html", description: "The page's HTML, as `/status/{slug}` would render it" },
      summary: "Preview a status page (drafts too)",
      description:
        "The HTML the public page renders (`GET /status/{slug}`), from the page as saved, published or not: what the console's editor shows in a sandboxed frame before publishing. " +
        "The same CSP as the public page except that this origin may frame it; `Cache-Control: no-store`.",
    },
    async (c, { params }) => {
      const summary = await previewStatusPage({ ctx: verbContext(c), input: { id: params.page_id } });
      const { html, style } = renderStatusPage(summary);
      return c.body(html, 200, {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy": await statusPageCsp(style, summary.logo_url, { framedBy: "'self'" }),
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "SAMEORIGIN",
      });
    },
  );
}
