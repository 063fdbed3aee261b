// A reference field's search picker in a real browser, against the product started as the README says:
// with 150 hardware nodes (more than a first page could offer), a compute unit's form finds number 140 by
// part of its name with the keyboard and saves the relation; on edit the current host's name is shown,
// Escape closes and then restores it, a click picks, and emptying the field clears the reference. The
// searches go to the list endpoint's `q`, never two at once.
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.230";
const ADMIN = { email: "picker@example.com", password: "a long passphrase for the picker" };
const HARDWARE = 150;
const FIRST_ID = 1001;
const nameOf = (n: number) => `rack-server-${String(n).padStart(3, "0")}`;

/** Counts the picker's searches of the hardware list and the most that were ever in flight together. */
function watchSearches(page: Page) {
  const stats = { started: 0, inFlight: 0, maxInFlight: 0, queries: [] as string[] };
  const isSearch = (r: Request) => {
    const url = new URL(r.url());
    return url.pathname === "/api/v1/hardware" && url.searchParams.get("sort") === "name" && url.searchParams.get("limit") === "20";
  };
  const done = (r: Request) => {
    if (isSearch(r)) stats.inFlight--;
  };
  page.on("request", (r) => {
    if (!isSearch(r)) return;
    stats.started++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    stats.queries.push(new URL(r.url()).searchParams.get("q") ?? "");
  });
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return stats;
}

describe.skipIf(!hasChromium)("reference picker in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  let unitId = 0;
  const target = FIRST_ID + 139; // rack-server-140

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    // One import instead of 150 creates (which the default rate limit would spread over minutes).
    const hardware = Array.from({ length: HARDWARE }, (_, i) => ({ id: FIRST_ID + i, name: nameOf(i + 1), role: "server" }));
    await s.api("POST", "/admin/import", { data: { hardware } });
    unitId = Number((await s.api("POST", "/compute-units", { name: "vm-picker", kind: "vm" })).id);
    const total = (await s.api("GET", "/hardware?limit=1")).total;
    expect(total).toBe(HARDWARE);
  }, 300_000);

  afterAll(async () => {
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  const hostOf = async () => (await s.api("GET", `/compute-units/${unitId}`)).hardware_id;

  it("finds hardware node 140 of 150 by part of its name with the keyboard and saves the relation", async () => {
    const { page } = s;
    const searches = watchSearches(page);
    await page.goto(`${s.product.url}/inventory/compute/${unitId}/edit`);
    await seen(page.getByRole("heading", { name: "Edit vm-picker" }));
    const host = page.getByRole("combobox", { name: "Host" });
    expect(await host.inputValue()).toBe("");
    expect(await host.getAttribute("aria-expanded")).toBe("false");

    // Down opens the list from the start: "None" and the first 20 by name, with how many there are.
    await host.focus();
    await page.keyboard.press("ArrowDown");
    expect(await host.getAttribute("aria-expanded")).toBe("true");
    const listbox = page.getByRole("listbox", { name: "hardware node matches" });
    await seen(listbox.getByRole("option", { name: /rack-server-001/ }));
    await seen(page.getByText(`20 of ${HARDWARE} shown`));
    expect(await listbox.getByRole("option").count()).toBe(21);

    // Typed key by key, slower than the pause before a search: each key may ask, never two at once.
    await host.pressSequentially("server-14", { delay: 120 });
    await seen(page.getByRole("status").filter({ hasText: "10 matches" }));
    expect(await listbox.getByRole("option").allInnerTexts()).toEqual(
      Array.from({ length: 10 }, (_, i) => `${nameOf(140 + i)} #${target + i}`),
    );
    await shot(page, "40-ref-picker-matches");

    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    const active = await host.getAttribute("aria-activedescendant");
    expect(await page.locator(`[id="${active}"]`).innerText()).toContain(nameOf(140));
    expect(await page.locator(`[id="${active}"]`).getAttribute("aria-selected")).toBe("true");
    // Enter picks (and does not submit the form while the list is open).
    await page.keyboard.press("Enter");
    expect(await host.inputValue()).toBe(nameOf(140));
    expect(await host.getAttribute("aria-expanded")).toBe("false");
    expect(page.url()).toContain("/edit");

    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByRole("heading", { name: "vm-picker" }));
    // The detail page names the host, linking to it.
    await seen(page.locator("dl.fields").getByRole("link", { name: nameOf(140), exact: true }));
    expect(await hostOf()).toBe(target);

    expect(searches.maxInFlight).toBe(1);
    expect(searches.started).toBeLessThanOrEqual(1 + "server-14".length);
    expect(searches.queries).toContain("server-14");
  }, 120_000);

  it("shows the current host's name on edit; Escape closes, then restores it; a click picks; emptying clears", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/inventory/compute/${unitId}/edit`);
    const host = page.getByRole("combobox", { name: "Host" });
    await expect.poll(() => host.inputValue(), { timeout: 15_000 }).toBe(nameOf(140));

    await host.fill("no such server");
    await seen(page.getByRole("status").filter({ hasText: "No hardware node matches" }));
    await page.keyboard.press("Escape");
    expect(await host.getAttribute("aria-expanded")).toBe("false");
    expect(await host.inputValue()).toBe("no such server");
    await page.keyboard.press("Escape");
    expect(await host.inputValue()).toBe(nameOf(140));

    await host.fill("server-007");
    const option = page.getByRole("option", { name: new RegExp(nameOf(7)) });
    await (await seen(option)).click();
    expect(await host.inputValue()).toBe(nameOf(7));
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.locator("dl.fields").getByRole("link", { name: nameOf(7), exact: true }));
    expect(await hostOf()).toBe(FIRST_ID + 6);

    await page.goto(`${s.product.url}/inventory/compute/${unitId}/edit`);
    await expect.poll(() => host.inputValue(), { timeout: 15_000 }).toBe(nameOf(7));
    await host.fill("");
    await page.keyboard.press("Tab");
    expect(await host.inputValue()).toBe("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByRole("heading", { name: "vm-picker" }));
    await expect.poll(hostOf, { timeout: 10_000 }).toBeNull();
  }, 120_000);
});
