// The web UI's mounts (spec 4.6) on their own: hashed assets with a year's cache, index.html for a screen's
// path, and the JSON 404 kept for /api, for missing assets and for every path when no UI is bundled.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../../functions/deps.ts";
import { notFound } from "../../../functions/errors.ts";
import { webAppRoutes, withWebAppPage } from "../../../functions/routes/web-app.ts";
import type { Deps, WebAppFiles } from "../../../shared/deps.ts";

const text = (s: string) => new TextEncoder().encode(s);
const files: Record<string, { bytes: Uint8Array; contentType: string }> = {
  "index.html": { bytes: text("<!doctype html><div id=app></div>"), contentType: "text/html; charset=utf-8" },
  "assets/index-abc123.js": { bytes: text("console.log(1)"), contentType: "text/javascript; charset=utf-8" },
  "icons/app.svg": { bytes: text("<svg/>"), contentType: "image/svg+xml" },
};

function app(webApp: WebAppFiles | undefined): Hono<AppEnv> {
  const a = new Hono<AppEnv>();
  a.use("*", async (c, next) => {
    c.set("deps", (webApp ? { webApp } : {}) as Deps);
    await next();
  });
  a.notFound(withWebAppPage(notFound));
  webAppRoutes(a);
  a.get("/api/v1/livez", (c) => c.json({ status: "alive" }));
  return a;
}

const bundled = app((name) => files[name]);

describe("web UI mounts", () => {
  it("serves hashed assets with a year's immutable cache", async () => {
    const res = await bundled.request("/assets/index-abc123.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await res.text()).toBe("console.log(1)");
    expect((await bundled.request("/icons/app.svg")).status).toBe(200);
  });

  it("answers index.html, not cached and under a strict CSP, for any screen's path", async () => {
    for (const path of ["/", "/inventory/hardware", "/inventory/hardware/7/edit", "/agents?x=1"]) {
      const res = await bundled.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(await res.text()).toContain("id=app");
    }
    expect((await bundled.request("/inventory", { method: "HEAD" })).status).toBe(200);
  });

  it("keeps JSON 404s for /api, missing files and writes", async () => {
    for (const path of [
      "/api/v1/nope",
      "/api",
      "/assets/missing.js",
      "/icons/none.svg",
      "/uploads/x/y",
      "/favicon.ico",
      "/install-agent.sh",
      "/.well-known/x",
    ]) {
      const res = await bundled.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ error_code: "RESOURCE_NOT_FOUND" });
    }
    expect((await bundled.request("/inventory", { method: "POST" })).status).toBe(404);
    expect((await bundled.request("/api/v1/livez")).status).toBe(200);
  });

  it("answers only JSON 404s when no UI is bundled", async () => {
    const bare = app(undefined);
    for (const path of ["/", "/inventory/hardware", "/assets/index-abc123.js"]) {
      const res = await bare.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
    }
  });
});
