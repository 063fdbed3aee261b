// The public status page in a real browser, against the product started as the README says, with a
// published page made through the API over push monitors driven into different states:
// - without JavaScript it reads whole: the overall state, each section, each item with its state, its
//   90-day and 24-hour bars, the upstream line of an item down because of a listed upstream, maintenance;
// - at phone width (390x844) nothing scrolls sideways and no text is cut off;
// - a draft page is the 404 page;
// - the CSP header is there and the browser blocks nothing and logs no error;
// - in the console, a monitor the page lists shows its (now public) badges, saying why.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, tempDataDir, until } from "../helpers.ts";
import { hasChromium, launch, seen, shot } from "./browser.ts";

const HOST = "127.0.0.93";
const ADMIN = { email: "status-page@example.com", password: "a long passphrase for status pages" };
const LONG_NAME = "Customer sign-in and single-sign-on gateway for the European region";
const UNBROKEN = "averyveryverylongunbrokeninternalservicenamethatnobodywrapped";

describe.skipIf(!hasChromium)("the public status page in a real browser", () => {
  const data = tempDataDir();
  let product: Product;
  let browser: Browser;
  let api: (method: string, path: string, body?: unknown) => Promise<Record<string, any>>;
  let storageId: number;

  beforeAll(async () => {
    product = await startProduct({ HOST, DATA_DIR: data.dir, SVC_SETUP_TOKEN: SETUP_TOKEN }, 240_000);
    const init = await product.fetch("/api/v1/bootstrap/initialize", jsonBody({ ...ADMIN, setup_token: SETUP_TOKEN }));
    expect(init.status).toBe(200);
    const bearer = ((await init.json()) as { token: string }).token;
    api = async (method, path, body) => {
      const res = await product.fetch(`/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
      return res.json();
    };
    const nas = await api("POST", "/hardware", { name: "nas-01-internal", ip_address: "10.0.0.5" });
    const shop = await api("POST", "/services", { name: "shop-backend-internal", hardware_id: nas.id });
    const push = (name: string, target: Record<string, unknown> = {}) => api("POST", "/monitors", { name, check_type: "push", ...target });
    const storage = await push("nas heartbeat", { target_type: "hardware", target_id: nas.id });
    storageId = storage.id;
    const shopMonitor = await push("shop heartbeat", { target_type: "service", target_id: shop.id });
    const website = await push("website heartbeat");
    const backups = await push("backup heartbeat");
    const gateway = await push("gateway heartbeat");
    // Down: the NAS and the shop on it; up: the website and the backups; the gateway never pushed (unknown).
    for (const [m, query] of [
      [storage, "?status=down&msg=no%20answer"],
      [shopMonitor, "?status=down&msg=refused"],
      [website, ""],
      [backups, ""],
    ] as const)
      expect((await product.fetch(`/api/v1/push/${m.push_token}${query}`)).status).toBe(200);
    const now = Date.now();
    await api("POST", "/monitors/maintenance-windows", {
      name: "internal window name",
      starts_at: new Date(now - 3_600_000).toISOString(),
      ends_at: new Date(now + 3_600_000).toISOString(),
      monitor_ids: [backups.id],
    });
    await api("POST", "/status-pages", {
      slug: "home",
      title: "Family services",
      description: "What works at home, and what does not.",
      footer_text: "Questions? Ask the person who set this up.",
      published: true,
      sections: [
        { name: "Infrastructure", items: [{ kind: "monitor", monitor_id: storage.id, public_name: "Storage cluster" }] },
        {
          name: "Apps",
          items: [
            { kind: "service", service_id: shop.id, public_name: "Shop" },
            { kind: "monitor", monitor_id: website.id, public_name: "Website" },
            { kind: "monitor", monitor_id: backups.id, public_name: "Backups" },
            { kind: "monitor", monitor_id: gateway.id, public_name: `${LONG_NAME} ${UNBROKEN}` },
          ],
        },
      ],
    });
    await api("POST", "/status-pages", { slug: "draft", title: "Secret draft", sections: [] });
    // The pushes' buckets are committed with their results; wait (bounded) until the summary shows them.
    await until(
      "the pushes in the page's 24-hour bars",
      async () => {
        const s = (await (await product.fetch("/api/v1/status-pages/home/summary")).json()) as {
          sections: { items: { name: string; last_24h: { uptime: number | null }[] }[] }[];
        };
        const items = s.sections.flatMap((x) => x.items);
        return items.filter((i) => i.last_24h.at(-1)?.uptime != null).length >= 4 ? true : undefined;
      },
      30_000,
    );
    browser = await launch();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await killAll();
    data.remove();
  });

  /** A page in a fresh context that records console errors, page errors and CSP refusals. */
  async function open(options: BrowserContextOptions, path = "/status/home") {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    const res = await page.goto(`${product.url}${path}`);
    return { page, res: res!, problems, close: () => context.close() };
  }

  /** The card of the item with this public name. */
  const card = (page: Page, name: string) => page.locator(".card").filter({ has: page.locator(".name", { hasText: name }) });

  it("reads whole without JavaScript: states, sections, bars, the upstream line, maintenance", async () => {
    const { page, res, problems, close } = await open({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    try {
      expect(res.status()).toBe(200);
      const csp = res.headers()["content-security-policy"]!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain("unsafe-inline");
      await seen(page.getByRole("heading", { name: "Family services", level: 1 }));
      await seen(page.getByText("Some systems are degraded"));
      expect(await page.getByRole("heading", { level: 2 }).allTextContents()).toEqual(["Maintenance", "Infrastructure", "Apps"]);
      expect(await card(page, "Storage cluster").locator(".state").textContent()).toBe("Down");
      expect(await card(page, "Shop").locator(".state").textContent()).toBe("Down: Storage cluster is down");
      expect(await card(page, "Website").locator(".state").textContent()).toBe("Operational");
      expect(await card(page, LONG_NAME).locator(".state").textContent()).toBe("Unknown");
      // Every item has its 90 daily and 24 hourly segments; today's hour shows the pushes' colour.
      for (const name of ["Storage cluster", "Shop", "Website", "Backups", LONG_NAME]) {
        const c = card(page, name);
        expect(await c.getByRole("img", { name: "Availability per day, last 90 days" }).locator("span").count()).toBe(90);
        expect(await c.getByRole("img", { name: "Availability per hour, last 24 hours" }).locator("span").count()).toBe(24);
      }
      const lastHour = (name: string) =>
        card(page, name).getByRole("img", { name: "Availability per hour, last 24 hours" }).locator("span").last().getAttribute("class");
      expect(await lastHour("Website")).toBe("u100");
      expect(await lastHour("Storage cluster")).toBe("u0");
      expect(await lastHour(LONG_NAME)).toBe("");
      // The 90 days' figure: a share, or plainly no data for an item never checked.
      expect(await card(page, "Website").locator(".legend span").nth(1).textContent()).toBe("100% uptime");
      expect(await card(page, LONG_NAME).locator(".legend span").nth(1).textContent()).toBe("No data yet");
      // Maintenance: in progress, naming the covered item by its public name, never the window's own name.
      const maintenance = page.locator(".card").filter({ hasText: "In progress, until" });
      await seen(maintenance);
      expect(await maintenance.locator(".meta").textContent()).toBe("Backups");
      expect(await page.content()).not.toContain("internal window name");
      expect(await page.content()).not.toContain("nas-01-internal");
      await shot(page, "status-page-public-no-js");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it("fits a phone: no sideways scrolling and no text cut off", async () => {
    const { page, res, problems, close } = await open({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    });
    try {
      expect(res.status()).toBe(200);
      await seen(page.getByText("Some systems are degraded"));
      const layout = await page.evaluate(() => {
        const root = document.documentElement;
        const width = root.clientWidth;
        const cut: string[] = [];
        for (const el of document.querySelectorAll<HTMLElement>("h1, h2, .banner, .name, .state, .note, .meta, .legend span, footer")) {
          const r = el.getBoundingClientRect();
          // Outside the viewport, or wider than its own box (clipped or overflowing).
          if (r.left < 0 || r.right > width + 0.5 || el.scrollWidth > el.clientWidth + 1)
            cut.push(`${el.className || el.tagName}: ${el.textContent}`);
        }
        const bars = [...document.querySelectorAll<HTMLElement>(".bar")].map((b) => b.getBoundingClientRect().right);
        return { scrollWidth: root.scrollWidth, width, cut, barsFit: bars.every((r) => r <= width + 0.5) };
      });
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.width);
      expect(layout.cut).toEqual([]);
      expect(layout.barsFit).toBe(true);
      // The long unbroken name wraps inside its card rather than widening the page.
      await seen(page.getByText(UNBROKEN, { exact: false }));
      await shot(page, "status-page-public-phone");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it("answers a draft with the 404 page, like an unknown slug", async () => {
    const draft = await open({ javaScriptEnabled: false }, "/status/draft");
    const unknown = await open({ javaScriptEnabled: false }, "/status/nothing-here");
    try {
      expect(draft.res.status()).toBe(404);
      expect(unknown.res.status()).toBe(404);
      await seen(draft.page.getByRole("heading", { name: "No such status page" }));
      expect(await draft.page.content()).not.toContain("Secret draft");
      expect(await draft.res.text()).toBe(await unknown.res.text());
      expect(draft.res.headers()["content-security-policy"]).toContain("default-src 'none'");
      expect(draft.problems.filter((p) => !/404/.test(p))).toEqual([]);
    } finally {
      await draft.close();
      await unknown.close();
    }
  }, 60_000);

  it("shows a listed monitor's public badges in the console, saying why", async () => {
    const { page, close } = await open({ viewport: { width: 1280, height: 900 } }, "/");
    try {
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await seen(page.getByRole("heading", { name: "Monitoring overview" }));
      await page.goto(`${product.url}/monitors/${storageId}`);
      await seen(page.getByRole("heading", { name: "Public badges" }));
      await seen(page.getByTestId("badges-listed"));
      const url = `${product.url}/api/v1/badges/monitors/${storageId}/status.svg`;
      await seen(page.getByTestId("badge-status").getByText(`![status](${url})`));
      expect((await fetch(url)).status).toBe(200);
      await shot(page, "status-page-listed-monitor-badges");
    } finally {
      await close();
    }
  }, 60_000);
});
