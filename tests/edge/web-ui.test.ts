// The web UI on the edge: the static assets of wrangler.toml (the build's files, the SPA fallback, the
// _headers file) in front of the worker, in miniflare, as `npm run build:edge` leaves them. The same
// headers as the Node server (tests/unit/functions/web-app.test.ts) and the API untouched by the fallback.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Miniflare, Response as MfResponse } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../functions/app.ts";
import { ASSET_MOUNTS } from "../../functions/routes/web-app.ts";
import { parseConfig } from "../../shared/config.ts";
import type { Deps } from "../../shared/deps.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { buildBundle, type EdgeBundle, startWorker, wranglerAssets } from "./harness.ts";

const BASE = "http://edge.test";
// What a browser sends when the address bar or a link opens a URL, and when a script fetches one.
const NAVIGATE = { "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", Accept: "text/html" };
const FETCH = { "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty", Accept: "application/json" };

let bundle: EdgeBundle;
let database: TestDatabase;
let mf: Miniflare;
let indexHtml: string;
const get = (path: string, headers: Record<string, string> = NAVIGATE) => mf.dispatchFetch(`${BASE}${path}`, { headers });

beforeAll(async () => {
  const results = await Promise.allSettled([buildBundle().then((b) => (bundle = b)), createTestDatabase().then((d) => (database = d))]);
  for (const r of results) if (r.status === "rejected") throw r.reason;
  indexHtml = await readFile(join(bundle.assets, "index.html"), "utf8");
  mf = startWorker(bundle, { bindings: { DATABASE_URL: database.url, LOG_LEVEL: "warn" }, assets: wranglerAssets(bundle.assets) });
  await mf.ready;
}, 180_000);

afterAll(async () => {
  await mf?.dispose();
  await database?.drop();
  await bundle?.remove();
});

async function expectPage(res: MfResponse, what: string) {
  expect(res.status, what).toBe(200);
  expect(res.headers.get("content-type"), what).toMatch(/^text\/html/);
  expect(res.headers.get("cache-control"), what).toBe("no-cache");
  expect(res.headers.get("content-security-policy"), what).toContain("script-src 'self'");
  expect(res.headers.get("x-frame-options"), what).toBe("DENY");
  expect(res.headers.get("referrer-policy"), what).toBe("same-origin");
  expect(await res.text(), what).toBe(indexHtml);
}

async function expectApiJson(res: MfResponse, status: number, what: string) {
  expect(res.status, what).toBe(status);
  expect(res.headers.get("content-type"), what).toMatch(/^application\/json/);
  // The worker's answer, not the assets': the request id is the app's.
  expect(res.headers.get("x-request-id"), what).toMatch(/^[0-9a-f-]{36}$/);
  return (await res.json()) as Record<string, unknown>;
}

describe("the build in the static assets", () => {
  it("holds the web UI without its source maps or build stamp, and the documentation scripts", async () => {
    const files = (await readdir(bundle.assets, { recursive: true })).map((f) => f.split("\\").join("/"));
    expect(files).toContain("index.html");
    expect(files).toContain("_headers");
    expect(files).toContain("api/docs/assets/scalar.js");
    expect(files.filter((f) => f.startsWith("assets/") && f.endsWith(".js")).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.endsWith(".map") || f.includes("/.") || f.startsWith("."))).toEqual([]);
    expect(indexHtml).toMatch(/<script[^>]+src="\/assets\/[^"]+\.js"/);
  });
});

describe("served in front of the worker", () => {
  it("answers / with index.html, revalidated on every load, under the page's CSP", async () => {
    await expectPage(await get("/"), "/ navigated");
    await expectPage(await get("/", FETCH), "/ fetched");
  });

  it("answers a hashed asset with its bytes, its type and a year's immutable cache", async () => {
    const assets = await readdir(join(bundle.assets, "assets"));
    const script = assets.find((f) => f.endsWith(".js"))!;
    const style = assets.find((f) => f.endsWith(".css"))!;
    for (const [name, type] of [
      [script, /^(text|application)\/javascript/],
      [style, /^text\/css/],
    ] as const) {
      const res = await get(`/assets/${name}`, { "Sec-Fetch-Dest": name.endsWith(".js") ? "script" : "style" });
      expect(res.status, name).toBe(200);
      expect(res.headers.get("content-type"), name).toMatch(type);
      expect(res.headers.get("cache-control"), name).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options"), name).toBe("nosniff");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(Buffer.from(bytes).equals(await readFile(join(bundle.assets, "assets", name))), name).toBe(true);
    }
    const icon = await get("/icons/app.svg", { "Sec-Fetch-Dest": "image" });
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(icon.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    await icon.arrayBuffer();
  });

  it("answers a screen's path with index.html, so a reload opens that screen", async () => {
    for (const path of ["/inventory/hardware", "/inventory/hardware/3/edit", "/topology?types=hardware", "/settings/tokens"]) {
      await expectPage(await get(path), `${path} navigated`);
      await expectPage(await get(path, FETCH), `${path} fetched`);
    }
  });

  it("lets /api/v1/health and the other API routes reach the worker", async () => {
    const health = await expectApiJson(await get("/api/v1/health", FETCH), 200, "/api/v1/health");
    expect(health).toMatchObject({ ready: true, checks: { database: "ok" } });
    // Typed into the address bar: still the API's answer, not the page.
    await expectApiJson(await get("/api/v1/health"), 200, "/api/v1/health navigated");
    const doc = await get("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("answers an unknown /api path with the API's JSON 404, never index.html", async () => {
    for (const path of ["/api/v1/no-such-thing", "/api/v2", "/api", "/api/v1/hardware/1/nope", "/api/docs/assets/nope.js"]) {
      for (const headers of [NAVIGATE, FETCH]) {
        const body = await expectApiJson(await get(path, headers), 404, path);
        expect(body, path).toMatchObject({ error_code: "RESOURCE_NOT_FOUND" });
      }
    }
  });

  it("hands a WebSocket upgrade under /api to the worker, not the page", async () => {
    // The streams live in the sidecar (Node): the worker itself answers that it has none here.
    const res = await get("/api/v1/topology/stream", {
      Upgrade: "websocket",
      Connection: "Upgrade",
      "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    });
    await expectApiJson(res, 404, "stream upgrade");
  });

  it("lets the worker answer its paths outside /api", async () => {
    const favicon = await get("/favicon.ico", { "Sec-Fetch-Dest": "image" });
    expect(await expectApiJson(favicon, 404, "/favicon.ico")).toMatchObject({ error_code: "RESOURCE_NOT_FOUND" });
    await expectApiJson(await get("/uploads/logo/none.png"), 404, "/uploads");
    const challenge = await get("/.well-known/acme-challenge/none", {});
    expect(challenge.status).toBe(404);
    expect(challenge.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await challenge.text()).not.toContain("<html");
    const script = await get("/install-agent.sh", {});
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^text\/x-shellscript/);
    expect(await script.text()).toMatch(/^#!/);
  });

  it("serves the documentation scripts as files with the Node server's day of cache", async () => {
    const res = await get("/api/docs/assets/redoc.js", { "Sec-Fetch-Dest": "script" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it("does not serve the _headers file itself", async () => {
    await expectPage(await get("/_headers"), "/_headers");
  });
});

describe("wrangler.toml's run_worker_first", () => {
  // A glob of run_worker_first ("*" any characters) as the router matches it.
  const matches = (pattern: string, path: string) =>
    new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(path);

  it("sends every route the app answers outside /api and the UI's mounts to the worker", () => {
    const app = createApp({ config: parseConfig({}, "0.0.0") } as Deps);
    const patterns = wranglerAssets("unused").routerConfig?.static_routing?.user_worker ?? [];
    const uiMounts = ASSET_MOUNTS.map((m) => `/${m}/*`);
    const outside = [...new Set(app.routes.map((r) => r.path))].filter((p) => !p.startsWith("/api") && p !== "/*" && !uiMounts.includes(p));
    expect(outside.length).toBeGreaterThan(0);
    // A route's parameters (":name") stand for any one segment.
    const uncovered = outside.filter((p) => !patterns.some((pattern: string) => matches(pattern, p.replace(/:[^/]+/g, "x"))));
    expect(uncovered).toEqual([]);
  });
});
