// The monitoring overview an operator keeps open all day (issue 32), in a real browser against the
// product started as the README says, with the rate limits of the normal profile (30 requests a minute
// per route and client):
// - eight visits in a row read /monitors/overview once each and /monitors never: no 429, and the state
//   tiles and the per-kind table say what the table lists (docs/adr/0463);
// - a 429 from the overview's route is shown as "The server is throttling requests; retrying in N s"
//   (its Retry-After) and the read is made again then, without a reload;
// - the list filters by status, target kind, site and tag (docs/adr/0464), the filters live in the URL
//   and survive a reload, and the list groups by site and by tag.
import type { Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.161";
const ADMIN = { email: "overview@example.com", password: "a long passphrase for the overview" };
const STATES = ["up", "degraded", "down", "pending", "maintenance"] as const;
/** Waits (bounded) for a condition the screen reaches after a read. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

describe.skipIf(!hasChromium)("the monitoring overview in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  const ids: Record<string, number> = {};
  let north = 0;

  const tileCount = async (state: string) =>
    (await s.page.locator(`.tiles [data-state="${state}"] .tile-count`).textContent())?.trim() ?? "";
  const rowNames = async () => (await s.page.locator("tbody tr[data-monitor] td[data-label='Name']").allTextContents()).sort();

  it("reads its counts and page in one request a visit: eight visits, no 429, tiles as the table", async () => {
    const { page, api } = s;
    north = (await api("POST", "/sites", { name: "North" })).id as number;
    const hw = (await api("POST", "/hardware", { name: "rack host", site_id: north, tags: ["rack-a"] })).id as number;
    // Three monitors that nothing checks yet (pending), one per kind of target, on paused push monitors
    // (no result will come): their states are set by pushes below.
    const make = async (name: string, target: Record<string, unknown>) => {
      const m = await api("POST", "/monitors", {
        name,
        check_type: "push",
        config: { expect: "interval" },
        interval_secs: 3600,
        ...target,
      });
      ids[name] = m.id as number;
      return m.push_url as string;
    };
    const upUrl = await make("north push", { target_type: "hardware", target_id: hw });
    const downUrl = await make("bare push", {});
    await make("quiet push", {});
    expect((await fetch(upUrl)).status).toBe(200);
    expect((await fetch(`${downUrl}?status=down&msg=disk%20full`)).status).toBe(200);

    const reads: string[] = [];
    const refused: string[] = [];
    const onRequest = (r: Request) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/api/v1/monitors")) reads.push(path);
    };
    page.on("request", onRequest);
    page.on("response", (r) => r.status() === 429 && refused.push(r.url()));
    const VISITS = 8;
    for (let i = 0; i < VISITS; i++) {
      await page.goto(`${s.product.url}/`);
      await seen(page.locator("tbody tr[data-monitor]").nth(2));
      await seen(page.getByRole("status").filter({ hasText: "Live" }));
      expect(await tileCount("up")).toBe("1");
    }
    page.off("request", onRequest);
    expect(refused).toEqual([]);
    expect(reads.filter((p) => p === "/api/v1/monitors")).toEqual([]);
    expect(reads.filter((p) => p === "/api/v1/monitors/overview").length).toBe(VISITS);
    // The tiles and the per-kind table count what the table lists.
    const statuses = await page.locator("tbody tr[data-monitor] td[data-label='Status']").allTextContents();
    for (const state of STATES) expect(await tileCount(state)).toBe(String(statuses.filter((t) => t.trim() === state).length));
    expect(await page.locator("tr[data-kind='hardware'] td[data-state='up']").textContent()).toBe("1");
    expect(await page.locator("tr[data-kind='none'] td[data-state='down']").textContent()).toBe("1");
    expect(await page.locator("tr[data-kind='none'] td[data-state='pending']").textContent()).toBe("1");
    await shot(page, "32-overview-visits");
  }, 120_000);

  it("shows a 429 as the server throttling, with its Retry-After, and reads again then", async () => {
    const { page } = s;
    let refusals = 0;
    await page.route(
      (url) => url.pathname === "/api/v1/monitors/overview",
      (route) => {
        if (refusals++ > 0) return route.continue();
        return route.fulfill({
          status: 429,
          headers: { "content-type": "application/json", "retry-after": "4" },
          body: JSON.stringify({ error_code: "RATE_LIMITED", detail: "Too many requests; retry after 4 seconds.", retry_after: 4 }),
        });
      },
    );
    try {
      await page.goto(`${s.product.url}/`);
      const notice = await seen(page.getByRole("alert").filter({ hasText: /^The server is throttling requests; retrying in [1-4] s\.$/ }));
      // Nothing is shown as a count while the only read was refused.
      expect(await tileCount("up")).toBe("…");
      await shot(page, "32-overview-throttled");
      // The retry (after Retry-After) is let through: the message goes and the counts come.
      await notice.waitFor({ state: "detached", timeout: 15_000 });
      await seen(page.locator("tbody tr[data-monitor]").nth(2));
      expect(await tileCount("up")).toBe("1");
      expect(refusals).toBe(2);
    } finally {
      await page.unrouteAll();
    }
  }, 60_000);

  it("filters by status, target kind, site and tag in the URL, which a reload keeps, and groups by site and tag", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/`);
    await seen(page.locator("tbody tr[data-monitor]").nth(2));
    const filters = page.getByRole("form", { name: "Filter and group the monitors" });

    await filters.getByLabel("Site").selectOption({ label: "North" });
    await poll(() => new URL(page.url()).searchParams.get("site_id")).toBe(String(north));
    await poll(rowNames).toEqual(["north push"]);
    await page.reload();
    await poll(rowNames).toEqual(["north push"]);
    expect(await filters.getByLabel("Site").inputValue()).toBe(String(north));
    // The counts are the filtered list's.
    expect(await tileCount("up")).toBe("1");
    expect(await tileCount("down")).toBe("0");

    await filters.getByRole("button", { name: "Clear" }).click();
    await poll(rowNames).toEqual(["bare push", "north push", "quiet push"]);
    await filters.getByLabel("Tag").selectOption("rack-a");
    await poll(rowNames).toEqual(["north push"]);
    await filters.getByLabel("Tag").selectOption("");
    await filters.getByLabel("Target kind").selectOption("none");
    await poll(rowNames).toEqual(["bare push", "quiet push"]);
    await filters.getByLabel("Status").selectOption("down");
    await poll(rowNames).toEqual(["bare push"]);
    expect(new URL(page.url()).search).toBe("?target_type=none&status=down");
    await page.reload();
    await poll(rowNames).toEqual(["bare push"]);
    // A state's tile is that state's filter: pending lists the quiet one.
    await page.locator(".tiles [data-state='pending'] button").click();
    await poll(rowNames).toEqual(["quiet push"]);

    await filters.getByRole("button", { name: "Clear" }).click();
    await filters.getByLabel("Group by").selectOption("site");
    await poll(() => page.locator("tbody[data-group]").evaluateAll((g) => g.map((e) => e.getAttribute("data-group")))).toEqual([
      "North",
      "No site",
    ]);
    expect(await page.locator("tbody[data-group='No site'] tr[data-monitor]").count()).toBe(2);
    await filters.getByLabel("Group by").selectOption("tag");
    await poll(() => page.locator("tbody[data-group]").evaluateAll((g) => g.map((e) => e.getAttribute("data-group")))).toEqual([
      "rack-a",
      "No tag",
    ]);
    await seen(page.locator("tr.group-head", { hasText: "rack-a (1)" }));
    await page.reload();
    expect(await filters.getByLabel("Group by").inputValue()).toBe("tag");
    await shot(page, "32-overview-grouped");
  }, 90_000);
});
