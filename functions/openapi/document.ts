// GET /api/openapi.json (generated from the routes' valibot schemas) and the two documentation pages.
// The pages load their scripts from this service, never from a CDN: operators run it on closed networks.
import { Scalar } from "@scalar/hono-api-reference";
import type { Hono, MiddlewareHandler } from "hono";
import { type GenerateSpecOptions, openAPIRouteHandler } from "hono-openapi";
import type { AppEnv } from "../deps.ts";
import { setHeader } from "../response-headers.ts";
import { docsPageCsp } from "../security-headers.ts";
import { errorComponents } from "./errors.ts";
import { TAGS } from "./tags.ts";

export const OPENAPI_PATH = "/api/openapi.json";
const ASSETS = "/api/docs/assets";

/** How the document is generated: served at OPENAPI_PATH, and read by scripts/web-api-types.ts for the web client. */
export function documentOptions(version: string): Partial<GenerateSpecOptions> {
  return {
    // Only tenants registers OPTIONS (the catalogue lists it); HEAD is implicit and stays out.
    excludeMethods: [],
    // The catalogue has one API path that looks like a file (GET /branding/manifest.json); static
    // mounts are not documented routes, so nothing else is added by keeping such paths.
    excludeStaticFile: false,
    documentation: {
      openapi: "3.1.0",
      info: {
        title: "Infrastructure control plane API",
        version,
        description: "Inventory, monitoring and intelligence control plane. Not a stable public API in the 1.0 line.",
      },
      tags: TAGS.map((name) => ({ name })),
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "Session JWT or API token" },
          session: { type: "apiKey", in: "cookie", name: "svc_session" },
        },
        responses: errorComponents(),
      },
      security: [{ bearer: [] }, { session: [] }],
    },
  };
}

// Per page body (two static pages): the CSP is worked out once from the HTML the page handler wrote.
const pageCsp = new Map<string, Promise<string>>();

/** The documentation pages may not be framed and run only this server's scripts (their inline ones by hash). */
const docsPageHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.status !== 200 || !c.res.headers.get("content-type")?.startsWith("text/html")) return;
  const html = await c.res.clone().text();
  let csp = pageCsp.get(html);
  if (!csp) {
    if (pageCsp.size >= 8) pageCsp.clear();
    pageCsp.set(html, (csp = docsPageCsp(html)));
  }
  setHeader(c, "Content-Security-Policy", await csp);
  setHeader(c, "X-Frame-Options", "DENY");
  setHeader(c, "Referrer-Policy", "same-origin");
};

export function documentRoutes(app: Hono<AppEnv>, version: string): void {
  app.get(OPENAPI_PATH, openAPIRouteHandler(app, documentOptions(version)));
  app.use("/api/docs", docsPageHeaders);
  app.use("/api/redoc", docsPageHeaders);

  app.get(
    "/api/docs",
    Scalar({
      url: OPENAPI_PATH,
      cdn: `${ASSETS}/scalar.js`,
      pageTitle: "API reference",
      withDefaultFonts: false,
      // Scalar's cloud features (Ask AI, Generate MCP, the Deploy popover of the developer tools) and
      // its telemetry need Scalar's servers: hidden, so the page shows only what works offline.
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
      telemetry: false,
    }),
  );

  app.get("/api/redoc", (c) =>
    c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>API reference (ReDoc)</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="${OPENAPI_PATH}"></redoc><script src="${ASSETS}/redoc.js"></script></body></html>`),
  );

  app.get(`${ASSETS}/:name{(scalar|redoc)\\.js}`, async (c) => {
    const name = c.req.param("name") as "scalar.js" | "redoc.js";
    const bytes = await c.get("deps").assets?.(name);
    if (!bytes) return c.notFound();
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(bytes as Uint8Array<ArrayBuffer>);
  });
}
