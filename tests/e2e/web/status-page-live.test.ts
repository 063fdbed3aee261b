// The public status page in a real browser (docs/adr/0459): with JavaScript it follows a state change
// live, without a reload and without a CSP refusal; without JavaScript, at phone width, it reads the
// same and scrolls only vertically.
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { recordResult } from "../../helpers/record-result.ts";
import { hasChromium, launch, seen, shot } from "./browser.ts";

describe.skipIf(!hasChromium)("the public status page in a browser", () => {
  let a: Actors;
  let server: ServerType;
  let base: string;
  let browser: Browser;
  let monitorId: number;

  const record = (up: boolean) => recordResult(a.t, monitorId, up);

  beforeAll(async () => {
    a = await createActors();
    const m = await a.req("POST", "monitors", a.admin, {
      name: "nas",
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port: 9 },
      max_retries: 0,
    });
    monitorId = (await m.json()).id;
    await a.t.sql`update monitors set status = 'up' where id = ${monitorId}`;
    const page = await a.req("POST", "status-pages", a.admin, {
      slug: "family",
      title: "Family services with a rather long title that must wrap on a phone",
      description: "Whether the NAS, the photos and the printer work right now.",
      published: true,
      sections: [{ name: "Storage", items: [{ kind: "monitor", monitor_id: monitorId, public_name: "Storage cluster" }] }],
    });
    expect(page.status).toBe(201);
    await new Promise<void>((ready) => {
      server = serve({ fetch: a.t.app.fetch, hostname: "127.0.0.1", port: 0 }, () => ready());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    (server as import("node:http").Server | undefined)?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await a?.t.close();
  });

  it("follows a state change live with JavaScript, without a reload or a CSP refusal", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on("console", (m) => m.type() === "error" && refused.push(m.text()));
    await page.goto(`${base}/status/family`);
    await seen(page.getByText("All systems operational"));
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    // Connected once this process counts the page's stream (bounded wait).
    const hub = a.t.runtime.deps.statusPageEvents!;
    for (let i = 0; i < 500 && hub.connections === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(hub.connections).toBe(1);
    await record(false);
    await seen(page.getByText("Major outage"));
    await seen(page.getByText("Down", { exact: true }));
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await record(true);
    await seen(page.getByText("All systems operational"));
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await shot(page, "status-page-live");
    expect(refused).toEqual([]);
    await context.close();
  });

  it("reads fine without JavaScript at phone width: no horizontal scroll", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/status/family`);
    await seen(page.getByRole("heading", { name: /Family services/ }));
    await seen(page.getByText("Storage cluster"));
    await seen(page.getByText("All systems operational"));
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await shot(page, "status-page-phone-no-js");
    await context.close();
  });
});
