// The status pages screens in a real browser (docs/status-pages.md, docs/adr/0460-status-page-console.md),
// against the product started as the README says, with two monitors and a service to list:
// - a new page's 422s are shown at their fields (the slug, an item's public name), nothing is created;
// - two sections and their items are added through the search pickers and created;
// - sections and items are reordered by drag and drop and by the keyboard's Move up / Move down buttons
//   (the focus stays on the moved one, a live region says where it went), each order saved and read back
//   through the API;
// - the preview shows the draft in a sandboxed frame; published, the public page opens from its link;
// - an edit made stale by another change is a 412 saying so, with "Load their version"; Delete (confirmed);
// - a viewer sees the list and a page read-only.
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.193";
const ADMIN = { email: "status-pages@example.com", password: "a long passphrase for status pages" };
const VIEWER = { email: "status-viewer@example.com", password: "viewer passphrase for status pages" };

type Section = {
  name: string;
  items: { kind: string; monitor_id: number | null; service_id: number | null; public_name: string | null }[];
};

describe.skipIf(!hasChromium)("status pages in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  let nasId = 0;
  let webId = 0;
  let photosId = 0;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    nasId = (await s.api("POST", "/monitors", { name: "nas-internal-01", check_type: "http", host: "nas01.lan" })).id as number;
    webId = (await s.api("POST", "/monitors", { name: "web-frontend-internal", check_type: "http", host: "web.lan" })).id as number;
    photosId = (await s.api("POST", "/services", { name: "photos-backend" })).id as number;
  }, 300_000);

  afterAll(async () => {
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  const sections = (page: Page) => page.locator("li[data-section]");
  const items = (section: Locator) => section.locator("li[data-item]");
  const ownHandle = (li: Locator) => li.locator(":scope > .status-head > .drag-handle");
  /** Picks a record in an item's search picker by part of its name. */
  async function pick(page: Page, item: Locator, label: "Monitor" | "Service", text: string, name: string) {
    const box = item.getByRole("combobox", { name: label });
    await box.fill(text);
    await (await seen(page.getByRole("option", { name: new RegExp(name) }))).click();
    expect(await box.inputValue()).toBe(name);
  }
  /** The saved page's sections as names: [[section, [public names]]]. */
  const order = async (id: number) =>
    ((await s.api("GET", `/status-pages/${id}`)).sections as Section[]).map((sec) => [sec.name, sec.items.map((i) => i.public_name)]);

  it("creates, reorders, previews, publishes, refuses a stale save and deletes a page", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Status pages" }).click();
    await seen(page.getByRole("heading", { name: "Status pages", level: 1 }));
    await seen(page.getByText("No status pages yet."));
    await page.getByRole("link", { name: "New status page" }).click();
    await seen(page.getByRole("heading", { name: "New status page", level: 1 }));

    await page.getByLabel("Slug").fill("Bad Slug!");
    await page.getByLabel("Title").fill("Home services");
    await page.getByRole("button", { name: "Add section" }).click();
    const storage = sections(page).nth(0);
    await storage.getByLabel("Section name").fill("Storage");
    await storage.getByRole("button", { name: "Add item" }).click();
    await pick(page, items(storage).nth(0), "Monitor", "nas", "nas-internal-01");
    // Its public name left empty: the API's 422 names it.
    await page.getByRole("button", { name: "Add section" }).click();
    const apps = sections(page).nth(1);
    await apps.getByLabel("Section name").fill("Apps");
    await apps.getByRole("button", { name: "Add item" }).click();
    await items(apps).nth(0).getByLabel("Shows").selectOption("service");
    await pick(page, items(apps).nth(0), "Service", "photos", "photos-backend");
    await items(apps).nth(0).getByLabel("Public name").fill("Photos");
    await apps.getByRole("button", { name: "Add item" }).click();
    await pick(page, items(apps).nth(1), "Monitor", "web-front", "web-frontend-internal");
    await items(apps).nth(1).getByLabel("Public name").fill("Website");

    await page.getByRole("button", { name: "Create status page" }).click();
    await seen(page.locator("#page-slug-error").getByText("A slug is 1-64 lower-case letters"));
    const nameError = await seen(items(storage).nth(0).locator(".field-error"));
    expect(await nameError.textContent()).toContain("Give the name the public sees.");
    expect(await items(storage).nth(0).getByLabel("Public name").getAttribute("aria-invalid")).toBe("true");
    expect((await s.api("GET", "/status-pages")).total).toBe(0);
    await shot(page, "80-status-page-422");

    await page.getByLabel("Slug").fill("home");
    await items(storage).nth(0).getByLabel("Public name").fill("Storage cluster");
    await page.getByRole("button", { name: "Create status page" }).click();
    await seen(page.getByRole("heading", { name: "Home services", level: 1 }));
    const id = Number(/\/status-pages\/(\d+)$/.exec(page.url())![1]);
    const created = await s.api("GET", `/status-pages/${id}`);
    expect(created).toMatchObject({ slug: "home", published: false });
    expect((created.sections as Section[]).map((sec) => sec.items.map((i) => [i.kind, i.monitor_id ?? i.service_id]))).toEqual([
      [["monitor", nasId]],
      [
        ["service", photosId],
        ["monitor", webId],
      ],
    ]);

    // Drag and drop: Apps onto Storage's place, then Website onto Photos's.
    // Both ends in view at once: scrolling the target into view mid-drag would move the drag's start.
    await page.setViewportSize({ width: 1280, height: 3000 });
    await ownHandle(sections(page).nth(1)).dragTo(sections(page).nth(0).locator(":scope > .status-head"));
    await expect.poll(() => sections(page).nth(0).getByLabel("Section name").inputValue(), { timeout: 5_000 }).toBe("Apps");
    await ownHandle(items(sections(page).nth(0)).nth(1)).dragTo(items(sections(page).nth(0)).nth(0).locator(".status-head"));
    await expect.poll(() => items(sections(page).nth(0)).nth(0).getByLabel("Public name").inputValue(), { timeout: 5_000 }).toBe("Website");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("Saved."));
    expect(await order(id)).toEqual([
      ["Apps", ["Website", "Photos"]],
      ["Storage", ["Storage cluster"]],
    ]);

    // The keyboard: Storage back up (the focus stays on it), then Photos up within Apps.
    const storageUp = page.getByRole("button", { name: "Move up: section “Storage”" });
    await storageUp.focus();
    await page.keyboard.press("Enter");
    // At the top its Move up is disabled: the focus is on its Move down.
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Move down: section “Storage”", null, {
      timeout: 5_000,
    });
    await seen(page.getByRole("status").filter({ hasText: "Section “Storage” moved to place 1 of 2." }));
    await page.getByRole("button", { name: "Move up: item “Photos” of section “Apps”" }).focus();
    await page.keyboard.press("Enter");
    await seen(page.getByRole("status").filter({ hasText: "Item “Photos” moved to place 1 of 2 in section “Apps”." }));
    await page.waitForFunction(
      () => document.activeElement?.getAttribute("aria-label") === "Move up: item “Photos” of section “Apps”",
      null,
      { timeout: 5_000 },
    );
    // The very first item cannot go further up.
    expect(await page.getByRole("button", { name: "Move up: item “Storage cluster” of section “Storage”" }).isDisabled()).toBe(true);
    await shot(page, "81-status-page-editor");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("Saved."));
    expect(await order(id)).toEqual([
      ["Storage", ["Storage cluster"]],
      ["Apps", ["Photos", "Website"]],
    ]);

    // The preview shows the saved draft in a sandboxed frame.
    const frame = page.getByTitle("Preview of Home services");
    expect(await frame.getAttribute("sandbox")).toBe("");
    const preview = page.frameLocator('iframe[title="Preview of Home services"]');
    await seen(preview.getByRole("heading", { name: "Home services" }));
    await seen(preview.getByText("Storage cluster"));
    await seen(preview.getByText("Photos"));
    expect(await preview.getByText("nas-internal-01").count()).toBe(0);
    expect((await s.product.fetch("/status/home")).status).toBe(404);
    await seen(page.getByText("Draft: not public"));

    // Published: the public page opens from its link.
    await page.getByRole("checkbox", { name: /Published/ }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("Saved."));
    const [pub] = await Promise.all([
      page.context().waitForEvent("page", { timeout: 15_000 }),
      page.getByRole("link", { name: "Open the public page" }).click(),
    ]);
    await pub!.waitForLoadState("domcontentloaded", { timeout: 15_000 });
    expect(new URL(pub!.url()).pathname).toBe("/status/home");
    await seen(pub!.getByRole("heading", { name: "Home services" }));
    await seen(pub!.getByText("Website"));
    await shot(pub!, "82-status-page-public");
    await pub!.close();

    // The list: published, with the public page's link.
    await page.getByRole("link", { name: "Status pages" }).first().click();
    const row = await seen(page.locator('tr[data-page="home"]'));
    await seen(row.getByText("published"));
    await seen(row.getByText("2 sections, 3 items"));
    expect(await row.getByRole("link", { name: "/status/home" }).getAttribute("href")).toBe("/status/home");

    // Someone else changes the page while it is open: the save is a 412 that says so.
    await row.getByRole("link", { name: "Home services" }).click();
    await seen(page.getByRole("heading", { name: "Home services", level: 1 }));
    await s.api("PATCH", `/status-pages/${id}`, { description: "changed elsewhere" });
    await page.getByLabel("Title").fill("Home services (new)");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("This status page was changed meanwhile"));
    expect((await s.api("GET", `/status-pages/${id}`)).title).toBe("Home services");
    await shot(page, "83-status-page-412");
    await page.getByRole("button", { name: "Load their version" }).click();
    await page.getByRole("button", { name: "Load their version" }).waitFor({ state: "detached" });
    expect(await page.getByLabel("Description").inputValue()).toBe("changed elsewhere");
    expect(await page.getByLabel("Title").inputValue()).toBe("Home services");

    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Delete status page" }).click();
    await seen(page.getByRole("heading", { name: "Status pages", level: 1 }));
    await seen(page.getByText("No status pages yet."));
    expect((await s.api("GET", "/status-pages")).total).toBe(0);
    expect((await s.product.fetch("/status/home")).status).toBe(404);
  }, 180_000);

  it("shows a viewer the list and a page read-only", async () => {
    const family = await s.api("POST", "/status-pages", {
      slug: "family",
      title: "Family status",
      published: true,
      sections: [{ name: "Home", items: [{ kind: "monitor", monitor_id: nasId, public_name: "NAS" }] }],
    });
    await s.api("POST", "/admin/users", { ...VIEWER, role: "viewer", must_change_password: false });
    const context = await s.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const p = await context.newPage();
    try {
      await p.goto(`${s.product.url}/status-pages`);
      await p.getByLabel("Email").fill(VIEWER.email);
      await p.getByLabel("Password").fill(VIEWER.password);
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.getByRole("heading", { name: "Status pages", level: 1 }));
      const row = await seen(p.locator('tr[data-page="family"]'));
      await seen(row.getByRole("link", { name: "/status/family" }));
      expect(await p.getByRole("link", { name: "New status page" }).count()).toBe(0);
      await row.getByRole("link", { name: "Family status" }).click();
      await seen(p.getByRole("heading", { name: "Family status", level: 1 }));
      await seen(p.getByText("Your role can read status pages but not change them"));
      expect(await p.getByLabel("Title").isDisabled()).toBe(true);
      expect(await p.getByLabel("Public name").inputValue()).toBe("NAS");
      for (const name of ["Save changes", "Delete…", "Add section", "Add item"])
        expect(await p.getByRole("button", { name }).count()).toBe(0);
      expect(await p.getByRole("button", { name: /^Move (up|down):/ }).count()).toBe(0);
      await seen(p.frameLocator('iframe[title="Preview of Family status"]').getByText("NAS"));
      await shot(p, "84-status-pages-viewer");
      await p.setViewportSize({ width: 390, height: 844 });
      await seen(p.getByRole("heading", { name: "Family status", level: 1 }));
      await shot(p, "85-status-page-phone");
    } finally {
      await context.close();
    }
    expect(family.id).toBeTypeOf("number");
  }, 60_000);
});
