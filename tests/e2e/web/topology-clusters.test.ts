// The topology past 1,500 nodes in a real browser, against the product started as the README says: 1,640
// records are drawn as groups (one per kind, a big kind split into groups of consecutive names), a tap on
// a group on the canvas opens it as a compound node, the list of groups opens them from the keyboard, a
// record inside can be selected and its blast radius marks the closed group holding its impacted
// records, opening past 1,500 drawn nodes is refused until another group is closed, and a node found by
// name in a closed group opens the groups holding it.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.231";
const ADMIN = { email: "clusters@example.com", password: "a long passphrase for clusters" };
const HARDWARE = 1300;
const COMPUTE = 300;
const SERVICES = 40;
const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** Asks the page's cytoscape (registered on its container by cytoscape itself) about the drawing. */
function graph<T>(page: Page, question: string, arg?: unknown): Promise<T> {
  return page.evaluate(
    ([q, a]) => {
      const cy = (document.querySelector(".graph") as unknown as { _cyreg: { cy: unknown } })._cyreg.cy;
      return new Function("cy", "arg", `return (${q})(cy, arg)`)(cy, a) as T;
    },
    [question, arg] as const,
  );
}

describe.skipIf(!hasChromium)("web UI topology past 1,500 nodes in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    // One import instead of 1,640 creates (which the default rate limit would spread over an hour).
    const hardware = Array.from({ length: HARDWARE }, (_, i) => ({ id: i + 1, name: `hw-${pad(i + 1, 4)}`, role: "server" }));
    const compute_units = Array.from({ length: COMPUTE }, (_, i) => ({
      id: i + 1,
      name: `vm-${pad(i + 1, 4)}`,
      kind: "vm",
      hardware_id: i + 1,
    }));
    const services = Array.from({ length: SERVICES }, (_, i) => ({ id: i + 1, name: `svc-${pad(i + 1, 2)}`, compute_id: i + 1 }));
    await s.api("POST", "/admin/import", { data: { hardware, compute_units, services } });
  }, 300_000);

  afterAll(async () => {
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("draws groups instead of every node and opens one tapped on the canvas", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Topology" }).click();
    await seen(page.getByText(`${(HARDWARE + COMPUTE + SERVICES).toLocaleString("en")} nodes, more than 1,500: drawn in groups`), 30_000);
    // The services (the smallest kind) start open; the big kinds are closed groups.
    await seen(page.locator(`.graph[data-nodes='${SERVICES}']`));
    const groups = page.getByRole("list").filter({ has: page.getByRole("button", { name: "hardware", exact: true }) });
    expect(await groups.getByRole("button", { name: "hardware", exact: true }).getAttribute("aria-expanded")).toBe("false");
    expect(await groups.getByRole("button", { name: "service", exact: true }).getAttribute("aria-expanded")).toBe("true");
    expect(await graph<number>(page, "(cy) => cy.nodes('.group').length")).toBe(2);
    // The edges between two closed groups are merged into one, counted.
    expect(await graph<number>(page, "(cy) => cy.$id('merged:group:hardware>group:compute_unit').data('count')")).toBe(COMPUTE);
    await shot(page, "32-topology-groups");

    // A tap on the hardware group on the canvas opens it: its groups of consecutive names appear inside it.
    const at = await graph<{ x: number; y: number }>(
      page,
      `(cy) => {
      const p = cy.$id("group:hardware").renderedPosition();
      const box = cy.container().getBoundingClientRect();
      return { x: box.left + p.x, y: box.top + p.y };
    }`,
    );
    await page.mouse.click(at.x, at.y);
    await expect
      .poll(() => groups.getByRole("button", { name: "hardware", exact: true }).getAttribute("aria-expanded"), { timeout: 10_000 })
      .toBe("true");
    const first = groups.getByRole("button", { name: /^hw-0001 … hw-0\d+$/ });
    await seen(first);
    expect(await graph<boolean>(page, "(cy) => cy.$id('group:hardware').isParent()")).toBe(true);
    expect(await graph<number>(page, "(cy) => cy.$id('group:hardware').children('.group').length")).toBe(Math.ceil(HARDWARE / 150));
    await shot(page, "33-topology-group-open");
  }, 120_000);

  it("opens a group from the keyboard, selects a record in it, and marks the closed group its blast radius reaches", async () => {
    const { page } = s;
    const groups = page.getByRole("list").filter({ has: page.getByRole("button", { name: "hardware", exact: true }) });
    const first = groups.getByRole("button", { name: /^hw-0001 … hw-0\d+$/ });
    const size = Number(/hw-0(\d+)$/.exec(await first.innerText())![1]);
    await first.focus();
    await page.keyboard.press("Enter");
    await seen(page.locator(`.graph[data-nodes='${SERVICES + size}']`));
    expect(await first.getAttribute("aria-expanded")).toBe("true");

    await page.getByRole("button", { name: "hw-0140", exact: true }).click();
    await seen(page.getByRole("heading", { name: "hw-0140" }));
    await page.getByRole("button", { name: "Show blast radius" }).click();
    await seen(page.locator(".blast").getByText("vm-0140"));
    // vm-0140 is inside the closed compute unit group: the group is marked instead.
    await expect
      .poll(() => graph<string[]>(page, "(cy) => cy.nodes('.impacted').map((n) => n.id())"), { timeout: 10_000 })
      .toContain("group:compute_unit");
    await shot(page, "34-topology-group-blast");
  }, 120_000);

  it("refuses to draw more than 1,500 nodes, and closing a group closes what it holds", async () => {
    const { page } = s;
    const groups = page.getByRole("list").filter({ has: page.getByRole("button", { name: "hardware", exact: true }) });
    const closedHardware = groups.getByRole("button", { name: /^hw-\d+ … hw-\d+$/, expanded: false });
    for (let i = 0; i < 20 && (await closedHardware.count()) > 0; i++) await closedHardware.first().click();
    await seen(page.locator(`.graph[data-nodes='${SERVICES + HARDWARE}']`), 30_000);
    await groups.getByRole("button", { name: "compute unit", exact: true }).click();
    await groups.getByRole("button", { name: /^vm-0001 … / }).click();
    await seen(page.getByText(/would draw 1,\d{3} nodes, more than 1,500: close another group first/));
    expect(await page.locator(".graph").getAttribute("data-nodes")).toBe(String(SERVICES + HARDWARE));

    await groups.getByRole("button", { name: "hardware", exact: true }).click();
    await seen(page.locator(`.graph[data-nodes='${SERVICES}']`));
    expect(await groups.getByRole("button", { name: /^hw-/ }).count()).toBe(0);
    await groups.getByRole("button", { name: /^vm-0001 … / }).click();
    await seen(page.locator(`.graph[data-nodes='${SERVICES + 150}']`));
  }, 120_000);

  it("finds a node hidden in a closed group and opens the groups holding it", async () => {
    const { page } = s;
    await page.getByLabel("Find a node").fill("hw-1200");
    const found = page.getByRole("listitem").filter({ hasText: "hw-1200" });
    await seen(found.getByText("in a closed group"));
    await found.getByRole("button", { name: "hw-1200" }).click();
    await seen(page.getByRole("heading", { name: "hw-1200" }));
    const groups = page.getByRole("list").filter({ has: page.getByRole("button", { name: "hardware", exact: true }) });
    expect(await groups.getByRole("button", { name: "hardware", exact: true }).getAttribute("aria-expanded")).toBe("true");
    expect(await groups.getByRole("button", { name: /^hw-1161 … hw-1300$/ }).getAttribute("aria-expanded")).toBe("true");
    await seen(page.locator(`.graph[data-nodes='${SERVICES + 150 + 140}']`));
    expect(await graph<boolean>(page, "(cy) => cy.$id('hw-1200').selected()")).toBe(true);
    await shot(page, "35-topology-found-in-group");
  }, 60_000);
});
