// The top bar's global search in a real browser against the product (issue 32 item 1): Ctrl+K and "/"
// focus it ("/" typed in another field stays a character), typing sends few requests (the route is rate
// limited), the matches are grouped by kind in an ARIA listbox, the keys move through them and Enter opens
// one, Escape closes the list, and a kind with more matches than shown offers its whole list.
import type { Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.32.1";
const ADMIN = { email: "search@example.com", password: "a long passphrase for search" };

describe.skipIf(!hasChromium)("global search in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  const ids: Record<string, number> = {};

  it("focuses on Ctrl+K and on '/', but '/' typed in a field is a character", async () => {
    const { page } = s;
    ids.switch = (await s.api("POST", "/hardware", { name: "corestone-switch", role: "switch", ip_address: "10.9.0.1" })).id as number;
    ids.service = (await s.api("POST", "/services", { name: "corestone-api" })).id as number;
    for (let i = 1; i <= 6; i++) await s.api("POST", "/hardware", { name: `edgeline-${i}` });

    const box = page.getByRole("combobox", { name: "Search the inventory" });
    await seen(box);
    await page.locator("main h1").first().click();
    await page.keyboard.press("Control+k");
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.locator("main h1").first().click();
    await page.keyboard.press("/");
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await box.inputValue()).toBe("");

    // In the hardware list's own search field "/" is typed, and the focus stays there.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Hardware" }).click();
    const listSearch = page.getByRole("search").getByRole("searchbox");
    await listSearch.click();
    await page.keyboard.type("a/b");
    expect(await listSearch.inputValue()).toBe("a/b");
    expect(await listSearch.evaluate((el) => el === document.activeElement)).toBe(true);
    await listSearch.fill("");
  });

  it("sends few requests while typing, groups the matches by kind and opens one with the keyboard", async () => {
    const { page } = s;
    const sent: string[] = [];
    const onRequest = (r: Request) => {
      if (new URL(r.url()).pathname === "/api/v1/search") sent.push(r.url());
    };
    page.on("request", onRequest);
    const box = page.getByRole("combobox", { name: "Search the inventory" });
    await page.keyboard.press("Control+k");
    // Ten keys, 40 ms apart: each one a request without the debounce.
    await page.keyboard.type("corestone-", { delay: 40 });
    const list = page.getByRole("listbox", { name: "Search results" });
    await seen(list.getByRole("option", { name: /corestone-switch/ }));
    page.off("request", onRequest);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeLessThanOrEqual(3);
    expect(sent.at(-1)).toContain("q=corestone-");

    expect(await box.getAttribute("aria-expanded")).toBe("true");
    expect(await box.getAttribute("aria-controls")).toBe(await list.getAttribute("id"));
    // One group per kind, named by it, each holding its matches.
    await seen(list.getByRole("group", { name: "Hardware" }).getByRole("option", { name: /corestone-switch/ }));
    await seen(list.getByRole("group", { name: "Services" }).getByRole("option", { name: /corestone-api/ }));
    await seen(page.getByRole("status").filter({ hasText: "2 matches" }));
    await shot(page, "global-search-results");

    await page.keyboard.press("ArrowDown");
    const first = list.getByRole("option", { name: /corestone-switch/ });
    expect(await first.getAttribute("aria-selected")).toBe("true");
    expect(await box.getAttribute("aria-activedescendant")).toBe(await first.getAttribute("id"));
    await page.keyboard.press("ArrowDown");
    expect(await first.getAttribute("aria-selected")).toBe("false");
    expect(await list.getByRole("option", { name: /corestone-api/ }).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await seen(page.getByRole("heading", { name: "corestone-switch" }));
    expect(new URL(page.url()).pathname).toBe(`/inventory/hardware/${ids.switch}`);
    expect(await box.getAttribute("aria-expanded")).toBe("false");
  });

  it("closes on Escape, empties on a second Escape, and offers a kind's whole list past five matches", async () => {
    const { page } = s;
    const box = page.getByRole("combobox", { name: "Search the inventory" });
    await page.keyboard.press("Control+k");
    await page.keyboard.type("edgeline");
    const list = page.getByRole("listbox", { name: "Search results" });
    const more = list.getByRole("option", { name: "All hardware matching “edgeline”" });
    await seen(more);
    expect(await list.getByRole("group", { name: "Hardware" }).getByRole("option").count()).toBe(6);
    await page.keyboard.press("Escape");
    expect(await box.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => list.isVisible()).toBe(false);
    expect(await box.inputValue()).toBe("edgeline");
    await page.keyboard.press("Escape");
    expect(await box.inputValue()).toBe("");

    // The answer is remembered: typing the same text again asks nothing, and the last option opens the list.
    let asked = 0;
    const count = (r: Request) => void (new URL(r.url()).pathname === "/api/v1/search" && asked++);
    page.on("request", count);
    await page.keyboard.type("edgeline");
    await seen(more);
    page.off("request", count);
    expect(asked).toBe(0);
    await more.click();
    await seen(page.getByRole("heading", { name: "Hardware" }));
    expect(new URL(page.url()).searchParams.get("q")).toBe("edgeline");
  });
});
