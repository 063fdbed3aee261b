// The public status page as HTML (docs/adr/0454-status-pages.md): GET /status/{slug}, and GET / when the
// request's Host is a published page's custom domain (any other Host gets the console as before). No
// credential; an unknown slug and a draft are the same 404 page. Registered before the web app's routes.
import type { Context, Hono } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { type PageLookup, statusPageSummary } from "../../../shared/verbs/status-pages/summary.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { statusPageCsp } from "../../status-page/page-csp.ts";
import { notFoundPage, renderStatusPage } from "../../status-page/render-page.ts";
import { cachedAnswer } from "./cached-answer.ts";

const HTML = "text/html; charset=utf-8";
const SLUG = /^[a-z0-9-]{1,64}$/i;

export async function pageHeaders(style: string, logoUrl: string | null): Promise<Record<string, string>> {
  return { "Content-Security-Policy": await statusPageCsp(style, logoUrl), "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY" };
}

export async function notFound(c: Context<AppEnv>): Promise<Response> {
  const { html, style } = notFoundPage();
  return c.body(html, 404, { "Content-Type": HTML, "Cache-Control": "no-store", ...(await pageHeaders(style, null)) });
}

/** The page, or null when no published page answers to `by` (the caller decides what a miss is). */
async function page(c: Context<AppEnv>, by: PageLookup): Promise<Response | null> {
  let summary: Awaited<ReturnType<typeof statusPageSummary>>;
  try {
    summary = await statusPageSummary({ ctx: verbContext(c), input: by });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
  const { html, style } = renderStatusPage(summary);
  return cachedAnswer(c, html, HTML, await pageHeaders(style, summary.logo_url));
}

/** The Host header's name, lower-case, without a port. */
const hostOf = (c: Context<AppEnv>) =>
  (c.req.header("host") ?? new URL(c.req.url).host).toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");

/**
 * `root`: whether this app answers `/` itself (it serves the console's build, on Node). On the edge the
 * asset layer answers `/` before the worker runs, so a custom domain there points at `/status/<slug>`
 * (docs/status-pages.md); only `/status/*` is routed to the worker first (wrangler.toml).
 */
export function publicStatusPageRoutes(app: Hono<AppEnv>, { root }: { root: boolean }): void {
  app.get("/status/:slug", async (c) => {
    const slug = c.req.param("slug");
    return (SLUG.test(slug) ? await page(c, { slug }) : null) ?? notFound(c);
  });
  if (!root) return;
  app.get("/", async (c, next) => {
    const host = hostOf(c);
    // Only a name that could be a custom domain costs a lookup (the console's own host mostly has no dot or is an IP).
    if (!host.includes(".") || /^[\d.]+$/.test(host)) return next();
    // The console must still load when the lookup fails (the database down): only a found page answers.
    const found = await page(c, { domain: host }).catch(() => null);
    return found ?? next();
  });
}
