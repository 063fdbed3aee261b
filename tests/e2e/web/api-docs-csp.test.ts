// The documentation pages under their Content-Security-Policy in a real browser: Scalar and ReDoc still
// render the API document, and the browser blocks nothing they need: the only refusals are two the
// pages cope with by design (KNOWN).
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { hasChromium, launch, seen } from "./browser.ts";

/**
 * Scalar's bundled zod probes for eval (`Function("")` in a try, falling back to its interpreter) and
 * ReDoc's footer loads its vendor's logo from cdn.redoc.ly: both refused on purpose (no eval, nothing from
 * outside), and neither stops the page.
 */
const KNOWN = [/^script-src eval$/, /^img-src https:\/\/cdn\.redoc\.ly\//, /Loading the image 'https:\/\/cdn\.redoc\.ly\//];

describe.skipIf(!hasChromium)("the API documentation pages under their CSP", () => {
  let t: TestApp;
  let server: ServerType;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_STORE: "database" });
    await new Promise<void>((ready) => {
      server = serve({ fetch: t.app.fetch, hostname: "127.0.0.1", port: 0 }, () => ready());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
    await t?.close();
  });

  for (const [path, title] of [
    ["/api/docs", "Infrastructure control plane API"],
    ["/api/redoc", "Infrastructure control plane API"],
  ] as const) {
    it(`${path} renders the document with nothing it needs blocked`, async () => {
      const page = await browser.newPage();
      try {
        const violations: string[] = [];
        await page.exposeFunction("reportViolation", (v: string) => violations.push(v));
        await page.addInitScript(() => {
          document.addEventListener("securitypolicyviolation", (e) =>
            (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
          );
        });
        page.on("console", (m) => {
          if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
        });
        const res = await page.goto(`${base}${path}`);
        expect(res?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
        await seen(page.getByText(title), 90_000);
        expect(violations.filter((v) => !KNOWN.some((k) => k.test(v)))).toEqual([]);
      } finally {
        await page.close();
      }
    }, 150_000);
  }
});
