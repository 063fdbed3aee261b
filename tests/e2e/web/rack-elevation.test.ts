// Racks, the journal and prefixes in the console, in a real browser against the product started as the
// README says: a rack's elevation drawn from the API, a device dragged to a free unit (the API's rack_unit
// changes), dragged onto another device (the 409 naming the occupant is shown, nothing changes, the box
// goes back), moved from the keyboard, and refused with a 412 when it changed since the page loaded;
// units reserved and released from the rack's page; a note added to a hardware node's journal, its
// Markdown rendered and its raw HTML shown as text, then deleted by its author; a prefix's page with its
// child prefix, its utilisation and the next free prefix.
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, type Screen, screensWiderThanPage, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const ADMIN = { email: "racks@example.com", password: "a long passphrase for racks" };

type Rec = { id: number };

/** The drawing's scale: screen pixels per SVG unit. */
async function scaleOf(page: Page): Promise<number> {
  return page
    .locator("svg.rack-drawing")
    .evaluate((svg) => svg.getBoundingClientRect().height / (svg as SVGSVGElement).viewBox.baseVal.height);
}

/** Drags a device's box `rows` rows down the drawing (negative: up) with the mouse, in small steps. */
async function dragRows(page: Page, box: Locator, rows: number): Promise<void> {
  const rect = await box.locator("rect").boundingBox();
  if (!rect) throw new Error("the device's box is not drawn");
  const row = 22 * (await scaleOf(page));
  const x = rect.x + rect.width / 2;
  const y = rect.y + Math.min(rect.height / 2, row / 2);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + (rows * row) / 2, { steps: 5 });
  await page.mouse.move(x, y + rows * row, { steps: 5 });
  await page.mouse.up();
}

describe.skipIf(!hasChromium)("racks, journal and prefixes in the console, in a real browser", () => {
  const s = signedInSuite("127.0.0.175", ADMIN);
  const create = async (path: string, body: Record<string, unknown>) => ((await s.api("POST", path, body)) as Rec).id;
  const unitOf = async (id: number) => (await s.api("GET", `/hardware/${id}`)).rack_unit;
  const device = (page: Page, name: string) => page.locator(`g.rack-device[data-face="front"]`).filter({ hasText: name });

  let rack = 0;
  let alpha = 0;
  let beta = 0;

  it("draws the rack's front and rear with its devices and reservation, and drags a device to a free unit", async () => {
    const { page } = s;
    const site = await create("/sites", { name: "dc-rack" });
    rack = await create("/racks", { site_id: site, name: "r1", u_height: 24 });
    alpha = await create("/hardware", { name: "alpha-sw", site_id: site, rack_id: rack, rack_unit: 10, u_height: 2, rack_face: "front" });
    beta = await create("/hardware", { name: "beta-srv", site_id: site, rack_id: rack, rack_unit: 20, u_height: 1, rack_face: "both" });
    await s.api("POST", `/racks/${rack}/reservations`, { first_unit: 3, u_count: 2, reason: "UPS shelf" });

    await page.goto(`${s.product.url}/inventory/racks`);
    const row = await seen(page.getByRole("row").filter({ hasText: "r1" }));
    // 3 U used (2 + 1), 2 U reserved, 19 U free.
    expect(await row.textContent()).toContain("3 / 2 / 19 U");

    await page.goto(`${s.product.url}/inventory/racks/${rack}`);
    await seen(page.getByRole("heading", { name: "Elevation" }));
    await seen(page.getByRole("button", { name: "alpha-sw, units 10–11, Front" }));
    // A full-depth node is drawn on both faces; the reservation on both, with its reason.
    expect(await page.locator("g.rack-device").filter({ hasText: "beta-srv" }).count()).toBe(2);
    expect(await page.getByRole("img", { name: "Reserved, units 3–4: UPS shelf" }).count()).toBe(2);
    await shot(page, "rack-elevation");

    // Down the drawing is down the rack (bottom-up numbering): 5 rows down from unit 10 is unit 5.
    await dragRows(page, device(page, "alpha-sw"), 5);
    await seen(page.getByText("alpha-sw moved to unit 5."));
    expect(await unitOf(alpha)).toBe(5);
    await seen(page.getByRole("button", { name: "alpha-sw, units 5–6, Front" }));
  });

  it("shows the 409 naming the occupant when a device is dropped on another, and puts it back", async () => {
    const { page } = s;
    // beta-srv at unit 20 onto unit 6, which alpha-sw (units 5-6) holds: 14 rows down.
    await dragRows(page, device(page, "beta-srv"), 14);
    const refusal = await seen(page.getByText(/^beta-srv was not moved:/));
    expect(await refusal.textContent()).toContain("hardware 'alpha-sw'");
    await shot(page, "rack-elevation-409");
    expect(await unitOf(beta)).toBe(20);
    expect(await unitOf(alpha)).toBe(5);
    await seen(page.getByRole("button", { name: "beta-srv, unit 20, Front and rear" }));
  });

  it("moves a device from the keyboard, and refuses a move of a device changed since the page loaded (412)", async () => {
    const { page } = s;
    const box = device(page, "beta-srv");
    await box.focus();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await seen(page.getByRole("button", { name: "beta-srv, unit 22, Front and rear" }));
    await page.keyboard.press("Enter");
    await seen(page.getByText("beta-srv moved to unit 22."));
    expect(await unitOf(beta)).toBe(22);

    // Someone else changes the node: this page's version of it is now stale.
    await s.api("PATCH", `/hardware/${beta}`, { notes: "changed elsewhere" });
    await dragRows(page, device(page, "beta-srv"), 2);
    await seen(page.getByText(/beta-srv was not moved: someone changed it since this page was loaded/));
    expect(await unitOf(beta)).toBe(22);
    await seen(page.getByRole("button", { name: "beta-srv, unit 22, Front and rear" }));

    // A click without a move opens the node's page.
    await device(page, "alpha-sw").locator("rect").click();
    await seen(page.getByRole("heading", { name: "alpha-sw" }));
    expect(new URL(page.url()).pathname).toBe(`/inventory/hardware/${alpha}`);
  });

  it("reserves units from the rack's page, refuses units a device takes, and releases them", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/inventory/racks/${rack}`);
    const section = await seen(page.getByRole("region", { name: "Reserved units" }));
    const form = section.getByRole("form", { name: "Reserve units" });
    // Units 5-6 hold alpha-sw: the API's 409 names it, nothing is reserved.
    await form.getByLabel("First unit").fill("6");
    await form.getByLabel("Reason").fill("patch panel");
    await form.getByRole("button", { name: "Reserve units" }).click();
    await seen(section.getByText(/alpha-sw/));
    expect(((await s.api("GET", `/racks/${rack}/reservations`)) as { items: unknown[] }).items).toHaveLength(1);

    await form.getByLabel("First unit").fill("14");
    await form.getByLabel("Units", { exact: true }).fill("2");
    await form.getByRole("button", { name: "Reserve units" }).click();
    await seen(page.getByRole("img", { name: "Reserved, units 14–15: patch panel" }));
    await section.getByRole("button", { name: "Release “patch panel”" }).click();
    // The list and the drawing are read again together: the released block leaves both.
    await section.getByRole("button", { name: "Release “patch panel”" }).waitFor({ state: "detached", timeout: 15_000 });
    expect(await page.getByRole("img", { name: /patch panel/ }).count()).toBe(0);
    await seen(section.getByText("units 3–4: UPS shelf"));
    const { items } = (await s.api("GET", `/racks/${rack}/reservations`)) as { items: { reason: string }[] };
    expect(items.map((r) => r.reason)).toEqual(["UPS shelf"]);
  });

  it("adds a note to a hardware node's journal, rendered safely with its kind, and deletes it", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/inventory/hardware/${alpha}/journal`);
    await seen(page.getByRole("heading", { name: "Journal", exact: true }));
    await seen(page.getByText("No notes yet."));
    await page.getByLabel("Kind", { exact: true }).selectOption("warning");
    await page.getByLabel("Note", { exact: true }).fill("Fan **replaced**; <script>window.pwned = 1</script>");
    await page.getByRole("button", { name: "Add note" }).click();
    const entry = await seen(page.locator("li.journal-entry.journal-warning"));
    await seen(entry.getByText("Warning"));
    await seen(entry.getByText("you", { exact: true }));
    expect(await entry.locator(".journal-body strong").textContent()).toBe("replaced");
    // Raw HTML in the Markdown is shown as text, never run.
    expect(await entry.locator(".journal-body").textContent()).toContain("<script>");
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await shot(page, "journal-note");
    const { items } = (await s.api("GET", `/journal?object_type=hardware&object_id=${alpha}`)) as { items: { kind: string }[] };
    expect(items.map((i) => i.kind)).toEqual(["warning"]);

    // The author deletes their own note (after confirming).
    page.once("dialog", (d) => void d.accept());
    await entry.getByRole("button", { name: "Delete" }).click();
    await seen(page.getByText("No notes yet."));
    expect(((await s.api("GET", `/journal?object_type=hardware&object_id=${alpha}`)) as { total: number }).total).toBe(0);
  });

  it("shows a prefix's child prefix, its utilisation and the next free prefix", async () => {
    const { page } = s;
    const parent = await create("/prefixes", { prefix: "10.20.0.0/16", status: "container" });
    await create("/prefixes", { prefix: "10.20.1.0/24" });
    await page.goto(`${s.product.url}/inventory/prefixes/${parent}`);
    const space = await seen(page.getByRole("region", { name: "Address space" }));
    await seen(space.getByRole("list", { name: "Child prefixes" }).getByRole("link", { name: "10.20.1.0/24" }));
    // 256 of 65,536 addresses: the /24 inside the container.
    expect(await space.getByTestId("prefix-utilisation").textContent()).toBe("0.39 % (256 / 65536)");
    await space.getByLabel("Prefix length").fill("24");
    await space.getByRole("button", { name: "Find the next free prefix" }).click();
    await seen(space.getByText("Free: 10.20.0.0/24, 10.20.2.0/24"));
    await shot(page, "prefix-space");
  });

  it("scrolls none of these screens sideways at 390 x 844", async () => {
    const context = await s.browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await s.page.context().storageState(),
    });
    const page = await context.newPage();
    const { items } = (await s.api("GET", "/prefixes?q=10.20.0.0")) as { items: Rec[] };
    const screens: Screen[] = [
      ["/inventory/racks", (p) => p.getByRole("link", { name: "r1" })],
      [`/inventory/racks/${rack}`, (p) => p.getByRole("heading", { name: "Elevation" })],
      [`/inventory/hardware/${alpha}/journal`, (p) => p.getByRole("heading", { name: "Journal", exact: true })],
      ["/inventory/prefixes", (p) => p.getByRole("link", { name: "10.20.0.0/16" })],
      [`/inventory/prefixes/${items[0]!.id}`, (p) => p.getByRole("heading", { name: "Address space" })],
      ["/inventory/vrfs", (p) => p.getByRole("heading", { name: "VRFs" })],
    ];
    const wide = await screensWiderThanPage(page, s.product.url, screens, "racks-390");
    await context.close();
    expect(wide).toEqual([]);
  });
});
