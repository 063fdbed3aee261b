// A working session in the console (issue 32, "Requests per screen"): an operator clicks through every
// screen of the sidebar, every settings section, and a record's page of each inventory group, round after
// round, under the default rate-limit profile (normal: 30 requests a minute per route and client). No
// response may be a 429 or a 5xx, and the browser's console stays free of errors.
//
// Why this stands for the "10-minute session": the limits count requests per route in one-minute
// windows, so the same clicks made faster are only harder to pass. The test makes the clicks of a
// ten-minute session (about one every four seconds: ~150 screens) as fast as the screens load, so every
// route a screen reads meets its limit in fewer windows than a person clicking would give it. Screens that
// read a shared route (the site list behind every site picker, /auth/me, ...) are what this catches.
import type { Page, Response } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.179";
const ADMIN = { email: "session@example.com", password: "a long passphrase for the session" };
/** A person clicking once every four seconds for ten minutes. */
const CLICKS = 150;

/** API requests the page has sent and not yet had answered (the live stream's socket is not one). */
function inFlight(page: Page): () => number {
  const open = new Set<unknown>();
  const api = (r: { url(): string }) => new URL(r.url()).pathname.startsWith("/api/");
  page.on("request", (r) => api(r) && open.add(r));
  page.on("requestfinished", (r) => open.delete(r));
  page.on("requestfailed", (r) => open.delete(r));
  return () => open.size;
}

/**
 * Waits (bounded) until the screen at `path` has finished its reads: the address is the screen's, nothing in
 * <main> says "loading", and no API request has been open for a quarter of a second.
 */
async function settled(page: Page, path: string, pending: () => number): Promise<void> {
  await page.waitForURL((u) => u.pathname === path, { timeout: 15_000 });
  await seen(page.locator("main h1"));
  await expect.poll(() => page.locator('main [aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
  let quietSince = Date.now();
  await expect
    .poll(
      () => {
        if (pending() > 0) quietSince = Date.now();
        return Date.now() - quietSince >= 250;
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true);
}

describe.skipIf(!hasChromium)("a ten-minute session clicking through every screen", () => {
  const s = signedInSuite(HOST, ADMIN);

  it("gets no 429, no 5xx and no console error", async () => {
    const { page, api } = s;
    // Something on every kind of page: a site, a hardware node on it, a service on the node, a network,
    // a monitor on the node.
    const site = (await api("POST", "/sites", { name: "Main" })).id as number;
    const hw = (await api("POST", "/hardware", { name: "rack1-srv01", site_id: site, ip_address: "10.0.0.10" })).id as number;
    await api("POST", "/services", { name: "web", hardware_id: hw });
    await api("POST", "/networks", { name: "lan", cidr: "10.0.0.0/24", site_id: site });
    await api("POST", "/monitors", {
      name: "rack1 push",
      check_type: "push",
      config: { expect: "interval" },
      interval_secs: 3600,
      target_type: "hardware",
      target_id: hw,
    });

    const pending = inFlight(page);
    const refused: string[] = [];
    const failed: string[] = [];
    const errors: string[] = [];
    const perRoute = new Map<string, number>();
    page.on("response", (r: Response) => {
      const path = new URL(r.url()).pathname;
      if (!path.startsWith("/api/")) return;
      perRoute.set(path, (perRoute.get(path) ?? 0) + 1);
      if (r.status() === 429) refused.push(`${r.request().method()} ${path}`);
      if (r.status() >= 500) failed.push(`${r.request().method()} ${path} ${r.status()}`);
    });
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

    // The session's screens, read from the console itself: the sidebar's entries, the settings page's
    // section tabs, and a record's page of every inventory list that has one.
    const hrefs = (selector: string) => page.locator(selector).evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    const sidebar = await hrefs("nav#nav a[href]");
    await page.locator('nav#nav a[href="/settings"]').click();
    await settled(page, "/settings", pending);
    const sections = (await hrefs("main nav.tabs a[href]")).filter((h) => !sidebar.includes(h));
    expect(sidebar.length).toBeGreaterThan(20);
    expect(sections.length).toBeGreaterThan(5);
    let clicks = 1;
    const started = Date.now();
    const open = async (link: ReturnType<Page["locator"]>) => {
      const target = await link.first().getAttribute("href");
      await link.first().click();
      await settled(page, target ?? "", pending);
      clicks++;
    };
    while (clicks < CLICKS) {
      for (const href of sidebar) {
        await open(page.locator(`nav#nav a[href="${href}"]`));
        // An inventory list with records: open the first one, as an operator checking a node would.
        const first = page.locator(`main tbody a[href^="${href}/"]`);
        if (href.startsWith("/inventory/") && (await first.count()) > 0) await open(first);
        // The settings page: every section, from its tabs.
        if (href === "/settings") for (const section of sections) await open(page.locator(`main nav.tabs a[href="${section}"]`));
      }
    }
    const seconds = (Date.now() - started) / 1000;
    await shot(page, "32-session-end");
    expect(clicks).toBeGreaterThanOrEqual(CLICKS);
    expect(refused, `throttled after ${clicks} clicks in ${seconds.toFixed(0)} s`).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    // No route was read more often than the limit allows in a minute for every minute the session lasted,
    // so a person clicking at their own pace stays far from it.
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    const busiest = [...perRoute.entries()].sort((a, b) => b[1] - a[1])[0];
    console.log(
      `${clicks} clicks in ${seconds.toFixed(0)} s; busiest routes:`,
      [...perRoute.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8),
    );
    expect(busiest?.[1] ?? 0, `busiest route ${busiest?.[0]}`).toBeLessThanOrEqual(30 * minutes);
  }, 600_000);
});
