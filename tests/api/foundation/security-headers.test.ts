// The headers every answer carries: nosniff on JSON (and every other) answer, HSTS only when PUBLIC_URL is
// https, and the documentation pages' CSP (their inline script allowed by hash, nothing from elsewhere)
// with frame protection. The edge's _headers file says the same for the web UI's static files.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../functions/app.ts";
import { HSTS } from "../../../functions/security-headers.ts";
import { edgeHeadersFile } from "../../../scripts/edge-web-assets.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The same process with another PUBLIC_URL (the app reads it when built). */
const appWith = (PUBLIC_URL: string | undefined) => createApp({ ...t.runtime.deps, config: { ...t.runtime.deps.config, PUBLIC_URL } });

describe("every answer", () => {
  it("a JSON answer, a JSON error and a 404 carry X-Content-Type-Options: nosniff", async () => {
    for (const [path, status] of [
      ["/api/v1/livez", 200],
      ["/api/v1/hardware", 401],
      ["/api/v1/no-such-thing", 404],
      ["/api/openapi.json", 200],
    ] as const) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("Strict-Transport-Security only when PUBLIC_URL is https", async () => {
    expect((await t.app.request("/api/v1/livez")).headers.get("strict-transport-security")).toBeNull();
    expect((await appWith("http://cp.example.test").request("/api/v1/livez")).headers.get("strict-transport-security")).toBeNull();
    const https = appWith("https://cp.example.test");
    for (const path of ["/api/v1/livez", "/api/v1/hardware", "/api/docs"])
      expect((await https.request(path)).headers.get("strict-transport-security"), path).toBe(HSTS);
    expect(HSTS).toBe("max-age=31536000");
  });
});

describe("the documentation pages", () => {
  it("/api/docs may not be framed and runs only this server's script and its own inline one (by hash)", async () => {
    const res = await t.app.request("/api/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    const hash = createHash("sha256").update(inline[0]!).digest("base64");
    const csp = res.headers.get("content-security-policy")!;
    const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives).toMatchObject({
      "default-src": "'self'",
      "script-src": `'self' 'sha256-${hash}'`,
      "connect-src": "'self'",
      "frame-ancestors": "'none'",
      "object-src": "'none'",
      "base-uri": "'self'",
    });
    expect(csp).not.toMatch(/unsafe-eval|https?:/);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("/api/redoc likewise (no inline script: only this server's)", async () => {
    const res = await t.app.request("/api/redoc");
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("the edge's _headers (web UI static files)", () => {
  it("carries nosniff and frame protection, and HSTS when built with an https PUBLIC_URL", () => {
    const plain = edgeHeadersFile();
    expect(plain).toContain("X-Content-Type-Options: nosniff");
    expect(plain).toContain("X-Frame-Options: DENY");
    expect(plain).not.toContain("Strict-Transport-Security");
    expect(edgeHeadersFile("http://cp.example.test")).not.toContain("Strict-Transport-Security");
    expect(edgeHeadersFile("https://cp.example.test")).toContain(`Strict-Transport-Security: ${HSTS}`);
  });
});
