// [status-pages] A published status page's incident history (docs/adr/0457-status-page-history-and-feeds.md):
// GET /status/{slug}/history (HTML, ?page=N), its JSON twin GET /api/v1/status-pages/{slug}/history, and
// the feeds GET /status/{slug}/feed.atom and feed.rss. No credential; an unknown slug and a draft page
// are the same 404 as the page's; cached like the page (cached-answer.ts).
import type { Context, Hono } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { PublicIncidentList, PublicIncidentListQuery, type StatusPageHistoryShape } from "../../../shared/schemas/status-page-incidents.ts";
import { StatusPageSlugParam } from "../../../shared/schemas/status-page-summary.ts";
import { statusPageHistory } from "../../../shared/verbs/status-pages/incidents/history.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { incidentFeed } from "../../status-page/incident-feed.ts";
import { renderHistoryPage } from "../../status-page/render-history.ts";
import { cachedAnswer, STATUS_PAGE_MAX_AGE_S } from "./cached-answer.ts";
import { STATUS_PAGES_BASE } from "./page-routes.ts";
import { notFound, pageHeaders } from "./public-page-routes.ts";

const SLUG = /^[a-z0-9-]{1,64}$/i;
/** Incidents per history page. */
export const HISTORY_PAGE_SIZE = 20;
/** Entries of a feed: the newest incidents. */
export const FEED_SIZE = 50;

/** The history, or null when no published page answers to the slug. */
async function history(c: Context<AppEnv>, limit: number, offset: number): Promise<StatusPageHistoryShape | null> {
  const slug = c.req.param("slug") ?? "";
  if (!SLUG.test(slug)) return null;
  try {
    return await statusPageHistory({ ctx: verbContext(c), input: { by: { slug }, limit, offset } });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** PUBLIC_URL when set, else this request's origin: feed readers need absolute links. */
function originOf(c: Context<AppEnv>): string {
  const configured = c.get("deps").config.PUBLIC_URL;
  return (configured ? (URL.parse(configured)?.origin ?? null) : null) ?? new URL(c.req.url).origin;
}

export function statusPageHistoryRoutes(app: Hono<AppEnv>): void {
  app.get("/status/:slug/history", async (c) => {
    const raw = c.req.query("page") ?? "1";
    // A page number that is not one, or past the end, is no page.
    const n = /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
    const h = n >= 1 ? await history(c, HISTORY_PAGE_SIZE, (n - 1) * HISTORY_PAGE_SIZE) : null;
    if (!h || (n > 1 && h.items.length === 0)) return notFound(c);
    const { html, style } = renderHistoryPage(h, n);
    return cachedAnswer(c, html, "text/html; charset=utf-8", await pageHeaders(style, h.page.logo_url));
  });
  for (const [format, type] of [
    ["atom", "application/atom+xml; charset=utf-8"],
    ["rss", "application/rss+xml; charset=utf-8"],
  ] as const)
    app.get(`/status/:slug/feed.${format}`, async (c) => {
      const h = await history(c, FEED_SIZE, 0);
      if (!h) return notFound(c);
      const feed = incidentFeed(h, originOf(c));
      return cachedAnswer(c, format === "atom" ? feed.atom1() : feed.rss2(), type);
    });
  route(
    app,
    {
      method: "get",
      path: `${STATUS_PAGES_BASE}/:slug/history`,
      tag: "status-pages",
      auth: "public",
      params: StatusPageSlugParam,
      query: PublicIncidentListQuery,
      response: { schema: PublicIncidentList },
      errors: [404],
      summary: "A published status page's incident history (public)",
      description:
        "No credential. The list envelope of the page's published incidents, newest first (`limit` default 20, `offset`): title, status, impact, started_at, resolved_at, the public names of the affected items and the timeline (newest first, each update's Markdown as sanitised `html`). " +
        `Drafts never appear; no ids (\`key\` is random per incident). An unknown slug and a draft page are the same 404. ETag, \`Cache-Control: public, max-age=${STATUS_PAGE_MAX_AGE_S}\`, 304 on If-None-Match. ` +
        "The same as HTML: /status/{slug}/history; as feeds: /status/{slug}/feed.atom and feed.rss.",
    },
    async (c, { params, query }) => {
      const h = await statusPageHistory({
        ctx: verbContext(c),
        input: { by: { slug: params.slug }, limit: query.limit, offset: query.offset },
      });
      const body = { items: h.items, total: h.total, limit: h.limit, offset: h.offset, sort: "started_at", direction: "desc" };
      return cachedAnswer(c, JSON.stringify(body), "application/json");
    },
  );
}
