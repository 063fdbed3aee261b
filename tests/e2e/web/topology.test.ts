// The topology screen in a real browser against the product started as the README says: the graph of a
// small inventory drawn, filtered by kind, a node added elsewhere appearing live, a hardware node's blast
// radius highlighted, and the click-through to its detail page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.135";
const ADMIN = { email: "topology@example.com", password: "a long passphrase for topology" };

describe.skipIf(!hasChromium)("web UI topology in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  let hostId = 0;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    hostId = Number((await s.api("POST", "/hardware", { name: "rack-host-1", role: "server" })).id);
    const vm = await s.api("POST", "/compute-units", { name: "vm-web", kind: "vm", hardware_id: hostId });
    await s.api("POST", "/services", { name: "shop-frontend", compute_id: Number(vm.id) });
    await s.api("POST", "/hardware", { name: "spare-host", role: "server" });
  }, 300_000);

  afterAll(async () => {
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("draws the graph, filters by kind and follows changes live", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Topology" }).click();
    const graph = await seen(page.locator(".graph[data-nodes='4']"), 30_000);
    expect(await graph.locator("canvas").count()).toBeGreaterThan(0);
    await seen(page.getByText("Live", { exact: true }));
    await shot(page, "30-topology");

    await page.getByLabel("service", { exact: true }).uncheck();
    await page.waitForURL(/types=/);
    await seen(page.locator(".graph[data-nodes='3']"));
    await page.getByLabel("service", { exact: true }).check();
    await seen(page.locator(".graph[data-nodes='4']"));

    await s.api("POST", "/hardware", { name: "late-arrival", role: "server" });
    await seen(page.locator(".graph[data-nodes='5']"), 30_000);
    await seen(page.getByRole("button", { name: "late-arrival" }));
  }, 90_000);

  it("highlights a node's blast radius and opens its page", async () => {
    const { page } = s;
    await page.getByRole("button", { name: "rack-host-1" }).click();
    await seen(page.getByRole("heading", { name: "rack-host-1" }));
    await page.getByRole("button", { name: "Show blast radius" }).click();
    await seen(page.getByText(/\d+ impacted/));
    const panel = page.locator(".blast");
    await seen(panel.getByText("vm-web"));
    await seen(panel.getByText("shop-frontend"));
    expect(Number(await page.locator(".graph").getAttribute("data-impacted"))).toBeGreaterThanOrEqual(2);
    await shot(page, "31-topology-blast-radius");

    await page.getByRole("link", { name: "Open details" }).click();
    await seen(page.getByRole("heading", { name: "rack-host-1" }));
    expect(new URL(page.url()).pathname).toBe(`/inventory/hardware/${hostId}`);
  }, 60_000);
});
