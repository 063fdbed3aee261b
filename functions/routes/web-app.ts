// The single-page app at / (spec 4.6), when a build of the web UI is bundled (deps.webApp): its hashed
// assets under /assets and /icons with a year's cache, and index.html for every other GET that no route
// answered outside /api, so a reload of /inventory/hardware/3 opens that screen. /api/* keeps its JSON 404.
import type { Context, Hono, NotFoundHandler } from "hono";
import type { WebFile } from "../../shared/deps.ts";
import type { AppEnv } from "../deps.ts";

// Paths that name a file (or an API) never get the page instead: a missing script must fail loudly.
const NOT_PAGES = /^\/(api|assets|icons|uploads|user-icons|branding|\.well-known)(\/|$)|^\/[^/]*\.(ico|sh|js|css|json|map|png|svg|txt)$/;

// The UI's scripts come only from this origin; styles may be inline (the theme switch sets one attribute).
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

/** The page's own headers (index.html at any screen's path); the edge's _headers file repeats them. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": PAGE_CSP,
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};
export const PAGE_CACHE = "no-cache";
// Vite names every asset by its content hash, so a cached copy is never stale.
export const ASSET_CACHE = "public, max-age=31536000, immutable";
/** The mounts of the build's files, each cached with ASSET_CACHE. */
export const ASSET_MOUNTS = ["assets", "icons"] as const;

function send(c: Context<AppEnv>, file: WebFile, cache: string, extra: Record<string, string> = {}): Response {
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": file.contentType,
    "Cache-Control": cache,
    "X-Content-Type-Options": "nosniff",
    ...extra,
  });
}

export function webAppRoutes(app: Hono<AppEnv>): void {
  const asset = (c: Context<AppEnv>) => {
    const file = c.get("deps").webApp?.(c.req.path.slice(1));
    return file ? send(c, file, ASSET_CACHE) : c.notFound();
  };
  for (const mount of ASSET_MOUNTS) app.get(`/${mount}/*`, asset);
}

/** The not-found answer: the app's page for a screen's path when a UI is bundled, else `fallback`. */
export function withWebAppPage(fallback: NotFoundHandler<AppEnv>): NotFoundHandler<AppEnv> {
  return (c) => {
    const index = c.get("deps")?.webApp?.("index.html");
    const method = c.req.method;
    if (!index || (method !== "GET" && method !== "HEAD") || NOT_PAGES.test(c.req.path)) return fallback(c);
    return send(c, index, PAGE_CACHE, PAGE_HEADERS);
  };
}
