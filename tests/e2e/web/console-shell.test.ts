// The console's frame in a real browser against the product (issue 32 items 2-4): the sidebar's folding
// groups with their icons, remembered across a reload; no main screen scrolls sideways on a 390 px
// phone; and times shown relative ("3 min. ago") with the exact time, in the browser's time zone, on hover,
// redrawn as the minutes pass.
import { describe, expect, it } from "vitest";
import { hasChromium, type Screen, screensWiderThanPage, seen, shot, sideways } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.32.2";
const ADMIN = { email: "shell@example.com", password: "a long passphrase for the shell" };
const GROUPS = ["Monitoring", "Inventory", "Discovery", "Settings"];

describe.skipIf(!hasChromium)("the console's frame in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  let hardwareId = 0;
  let monitorId = 0;

  it("groups the sidebar under folding buttons with icons, and remembers what is folded", async () => {
    const { page } = s;
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of GROUPS) {
      const button = nav.getByRole("button", { name });
      expect(await button.getAttribute("aria-expanded")).toBe("true");
      expect(await page.locator(`#${(await button.getAttribute("aria-controls"))!}`).isVisible()).toBe(true);
    }
    // Every link carries an icon, hidden from assistive technology (the link's text names it).
    const links = nav.getByRole("link");
    const total = await links.count();
    expect(total).toBeGreaterThan(15);
    expect(await nav.locator("a svg[aria-hidden='true']").count()).toBe(total);

    const inventory = nav.getByRole("button", { name: "Inventory" });
    await inventory.click();
    expect(await inventory.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => nav.getByRole("link", { name: "Hardware" }).isVisible()).toBe(false);
    await page.reload();
    await seen(nav.getByRole("link", { name: "Overview" }));
    expect(await nav.getByRole("button", { name: "Inventory" }).getAttribute("aria-expanded")).toBe("false");
    expect(await nav.getByRole("link", { name: "Hardware" }).isVisible()).toBe(false);
    expect(await nav.getByRole("button", { name: "Monitoring" }).getAttribute("aria-expanded")).toBe("true");
    await shot(page, "shell-nav-folded");
    await nav.getByRole("button", { name: "Inventory" }).click();
    await seen(nav.getByRole("link", { name: "Hardware" }));
    expect(await nav.getByRole("button", { name: "Inventory" }).getAttribute("aria-expanded")).toBe("true");
  });

  it("scrolls no main screen sideways at 390 x 844, with the menu open or closed", async () => {
    hardwareId = (await s.api("POST", "/hardware", { name: "rack-7-hypervisor-with-a-rather-long-name", role: "server" })).id as number;
    monitorId = (await s.api("POST", "/monitors", { name: "nightly backup job that reports by push", check_type: "push" })).id as number;
    const context = await s.browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await s.page.context().storageState(),
    });
    const page = await context.newPage();
    // Each screen, and what shows that its data has arrived.
    const screens: Screen[] = [
      ["/", (p) => p.getByText("By target kind")],
      ["/alerts", (p) => p.getByRole("heading", { name: "Alerts", exact: true })],
      ["/alert-rules", (p) => p.getByRole("heading", { name: "Alert rules" })],
      ["/status-pages", (p) => p.getByRole("heading", { name: "Status pages" })],
      ["/inventory/hardware", (p) => p.getByRole("link", { name: "rack-7-hypervisor-with-a-rather-long-name" })],
      [`/inventory/hardware/${hardwareId}`, (p) => p.getByText("Updated")],
      ["/inventory/sites", (p) => p.getByRole("heading", { name: "Sites" })],
      [`/monitors/${monitorId}`, (p) => p.getByText("Last checked")],
      ["/monitors/new", (p) => p.getByLabel("Name")],
      ["/topology", (p) => p.getByRole("heading", { name: "Topology" })],
      ["/discovery", (p) => p.getByRole("heading", { name: "Discovery" })],
      ["/agents", (p) => p.getByRole("heading", { name: "Agents" })],
      ["/settings/notifications", (p) => p.getByRole("heading", { name: "Routes" })],
      ["/settings/users", (p) => p.getByRole("cell", { name: ADMIN.email })],
    ];
    const wide = await screensWiderThanPage(page, s.product.url, screens, "shell-390");
    // The sidebar opened over the overview.
    await page.goto(s.product.url);
    await seen(page.getByText("By target kind"));
    await page.getByRole("button", { name: "Menu" }).click();
    await seen(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Hardware" }));
    const overWithMenu = await sideways(page);
    if (overWithMenu !== 0) wide.push(`/ with the menu open: ${overWithMenu}`);
    await shot(page, "shell-390-menu");
    await context.close();
    expect(wide).toEqual([]);
  }, 120_000);

  it("shows times relative, the exact time in the browser's time zone on hover, and redraws them each minute", async () => {
    const item = await s.api("GET", `/hardware/${hardwareId}`);
    const updated = new Date(item.updated_at as string);
    const context = await s.browser.newContext({
      viewport: { width: 1280, height: 900 },
      storageState: await s.page.context().storageState(),
      locale: "en-US",
      timezoneId: "Asia/Kolkata",
    });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${s.product.url}/inventory/hardware/${hardwareId}`);
    const time = page.locator("dt", { hasText: "Updated" }).locator("xpath=following-sibling::dd[1]").locator("time");
    await seen(time);
    expect(new Date((await time.getAttribute("datetime"))!).toISOString()).toBe(updated.toISOString());
    expect(await time.textContent()).toMatch(/^(now|\d+ min\. ago)$/);
    // The exact time as the browser's zone tells it (UTC+5:30), not the API's UTC.
    const title = (await time.getAttribute("title"))!;
    expect(title).toContain("GMT+5:30");
    const local = new Intl.DateTimeFormat("en-US", { timeZone: "Asia/Kolkata", hour: "numeric", minute: "2-digit" }).format(updated);
    expect(title.replace(/\s/g, " ")).toContain(local.replace(/\s/g, " ").replace(/ [AP]M$/, ""));
    await shot(page, "shell-relative-time");

    // Three minutes later (the browser's clock, moved by hand) the same element says so.
    const before = await time.textContent();
    await page.clock.fastForward("03:00");
    await expect.poll(() => time.textContent()).not.toBe(before);
    expect(await time.textContent()).toMatch(/^[3-9] min\. ago$/);
    await context.close();
  });
});
