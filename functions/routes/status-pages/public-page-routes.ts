// The public status page as HTML (docs/adr/0454-status-pages.md): GET /status/{slug}, and GET / when the
// request's Host is a published page's custom domain (any other Host gets the console as before). No
// credential; an unknown slug and a draft are the same 404 page. Registered before the web app's routes.
// Served from this process's page cache; where live updates are served (Node), the page carries the
// live script and GET /status/{slug}/events streams its changes (docs/adr/0459).
import type { Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { ApiError } from "../../../shared/errors.ts";
import type { PageLookup } from "../../../shared/verbs/status-pages/summary.ts";
import type { AppEnv } from "../../deps.ts";
import { LIVE_SCRIPT, LIVE_SCRIPT_PATH, liveScriptHash } from "../../status-page/live-script.ts";
import { statusPageCsp } from "../../status-page/page-csp.ts";
import { type LiveMarkup, notFoundPage, renderStatusPage } from "../../status-page/render-page.ts";
import { answerWith, cachedPage, noSuchPage, prepareAnswer, type Summary, summaryJson } from "./cached-answer.ts";

const HTML = "text/html; charset=utf-8";
const SLUG = /^[a-z0-9-]{1,64}$/i;

export async function pageHeaders(style: string, logoUrl: string | null, scriptHash?: string): Promise<Record<string, string>> {
  return {
    "Content-Security-Policy": await statusPageCsp(style, logoUrl, { scriptHash }),
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
  };
}

export async function notFound(c: Context<AppEnv>): Promise<Response> {
  const { html, style } = notFoundPage();
  return c.body(html, 404, { "Content-Type": HTML, "Cache-Control": "no-store", ...(await pageHeaders(style, null)) });
}

/** The page's HTML answer; with the live script where this process serves the event streams. */
async function renderAnswer(c: Context<AppEnv>, summary: Summary) {
  let live: LiveMarkup | undefined;
  let scriptHash: string | undefined;
  if (c.get("deps").statusPageEvents) {
    scriptHash = await liveScriptHash();
    // The query names the script's version, so a browser never holds an old script under a new hash.
    const src = `${LIVE_SCRIPT_PATH}?v=${encodeURIComponent(scriptHash.slice(7, 17))}`;
    live = { events: `/status/${summary.slug}/events`, script: `<script src="${src}" integrity="${scriptHash}" defer></script>` };
  }
  const { html, style } = renderStatusPage(summary, live);
  return prepareAnswer(html, HTML, await pageHeaders(style, summary.logo_url, scriptHash));
}

/** The page, or null when no published page answers to `by` (the caller decides what a miss is). */
async function page(c: Context<AppEnv>, by: PageLookup): Promise<Response | null> {
  const key = "slug" in by ? `html:slug:${by.slug.toLowerCase()}` : `html:domain:${by.domain}`;
  const found = await cachedPage(c, key, by, (summary) => renderAnswer(c, summary));
  return found.answer ? answerWith(c, found.answer) : null;
}

/** The Host header's name, lower-case, without a port. */
const hostOf = (c: Context<AppEnv>) =>
  (c.req.header("host") ?? new URL(c.req.url).host).toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");

/**
 * GET /status/{slug}/events: `event: ready` on connecting, `event: change` whenever the page may have
 * changed (read it again), a `: heartbeat` comment after 25 s of quiet, `event: close` before the
 * server ends it (draining). 503 beyond the per-process cap; 404 where no streams are served (the edge).
 */
function eventsRoute(app: Hono<AppEnv>): void {
  app.get("/status/:slug/events", async (c) => {
    const hub = c.get("deps").statusPageEvents;
    if (!hub) throw new ApiError("RESOURCE_NOT_FOUND", "Live updates are not served by this instance; reload the page to update.");
    const slug = c.req.param("slug");
    if (!SLUG.test(slug)) throw noSuchPage();
    const found = await summaryJson(c, slug);
    if (found.pageId === null) throw noSuchPage();
    // Hono answers HEAD with the GET handler and drops the body unread: no subscription for it.
    if (c.req.method === "HEAD") return c.body(null, 200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
    const sub = hub.open(found.pageId);
    c.header("Cache-Control", "no-store");
    // Reverse proxies that buffer (nginx) pass the events on at once.
    c.header("X-Accel-Buffering", "no");
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => sub.close());
      try {
        await stream.writeSSE({ event: "ready", data: "{}", retry: 5000 });
        for (;;) {
          const wake = await sub.next(hub.heartbeatMs);
          if (wake === "closed") break;
          if (wake === "heartbeat") await stream.write(": heartbeat\n\n");
          else await stream.writeSSE({ event: "change", data: "{}" });
        }
        if (!stream.aborted) await stream.writeSSE({ event: "close", data: JSON.stringify({ reason: "going_away" }) });
      } finally {
        sub.close();
      }
    });
  });
}

/**
 * `root`: whether this app answers `/` itself (it serves the console's build, on Node). On the edge the
 * asset layer answers `/` before the worker runs, so a custom domain there points at `/status/<slug>`
 * (docs/status-pages.md); only `/status/*` is routed to the worker first (wrangler.toml).
 */
export function publicStatusPageRoutes(app: Hono<AppEnv>, { root }: { root: boolean }): void {
  app.get(LIVE_SCRIPT_PATH, (c) =>
    c.body(LIVE_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" }),
  );
  eventsRoute(app);
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
