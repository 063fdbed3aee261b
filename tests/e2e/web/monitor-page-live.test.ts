// A monitor's page kept open (issue 32), in a real browser against the product started as the README
// says, with push monitors so each result comes when the test sends it:
// - a change made after the page's socket opened and before the server subscribed it (the stream's
//   `ready`) still shows: the page reads on `ready` (docs/adr/0463). The test holds `ready` back and
//   drops what the server sends before it, as the server would not have sent it;
// - the heartbeat bar shows the last results with the state after each (colour and shape), their time
//   and message on hover and on keyboard focus, grows live, and is in the overview's row (docs/adr/0465);
// - the history chart's time axis spans exactly the chosen period, even with a single point.
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.162";
const ADMIN = { email: "monitor-page@example.com", password: "a long passphrase for the monitor page" };
const HOUR = 3_600_000;

describe.skipIf(!hasChromium)("a monitor's page kept open, in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  const pushMonitor = async (name: string) => {
    const m = await s.api("POST", "/monitors", { name, check_type: "push", config: { expect: "interval" }, interval_secs: 3600 });
    return { id: m.id as number, push: async (query = "") => expect((await fetch(`${m.push_url as string}${query}`)).status).toBe(200) };
  };
  const statuses = (scope: string) =>
    s.page.locator(`${scope} .heartbeats [data-status]`).evaluateAll((b) => b.map((e) => e.getAttribute("data-status")));

  it("shows a change made between the socket's open and the stream's ready", async () => {
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
    const m = await pushMonitor("fresh push");
    const page = await s.page.context().newPage();
    let release = () => {};
    await page.routeWebSocket(
      (url) => url.pathname === "/api/v1/monitors/stream",
      (ws) => {
        const server = ws.connectToServer();
        let held = true;
        let ready: string | undefined;
        server.onMessage((frame) => {
          if (!held) return ws.send(frame);
          // Before the server's subscription nothing is sent; `ready` is kept for later.
          if (typeof frame === "string" && (JSON.parse(frame) as { type?: string }).type === "ready") ready = frame;
        });
        release = () => {
          held = false;
          if (ready) ws.send(ready);
        };
      },
    );
    try {
      await page.goto(`${s.product.url}/monitors/${m.id}`);
      const title = page.getByRole("heading", { name: /fresh push/, level: 1 });
      await seen(title.getByText("pending"));
      await seen(page.getByText("No events yet"));
      await m.push("?msg=first%20run");
      release();
      await seen(title.getByText("up"));
      await seen(page.locator("tr[data-event='up']"));
      expect(await page.getByText("No events yet").count()).toBe(0);
      await shot(page, "32-monitor-page-ready");
    } finally {
      await page.close();
    }
  }, 60_000);

  it("shows the last results as a heartbeat bar, with their details, growing live, also in the overview", async () => {
    const { page } = s;
    const m = await pushMonitor("beats push");
    await m.push("?msg=run%201&ping=10");
    await m.push("?msg=run%202&ping=12");
    await m.push("?status=down&msg=disk%20full");
    await m.push("?msg=run%204&ping=9");
    await page.goto(`${s.product.url}/monitors/${m.id}`);
    await seen(page.getByRole("heading", { name: /beats push/, level: 1 }));
    await seen(page.getByRole("status").filter({ hasText: "Live" }));
    const bar = page.getByRole("group", { name: "Checks of beats push: last 4 results, oldest first" });
    await seen(bar);
    expect(await statuses("#monitor-beats-title + div")).toEqual(["up", "up", "down", "up"]);
    // Colour and pattern: an up bar is the theme's good colour; a down bar is striped.
    const looks = await bar.locator("[data-status]").evaluateAll((bars) => {
      const probe = document.createElement("span");
      probe.style.color = "var(--good)";
      document.body.append(probe);
      const good = getComputedStyle(probe).color;
      probe.remove();
      return { good, up: getComputedStyle(bars[0]!).backgroundColor, down: getComputedStyle(bars[2]!).backgroundImage };
    });
    expect(looks.up).toBe(looks.good);
    expect(looks.down).toContain("repeating-linear-gradient");
    // Hover shows the result's time, state and message; so does the keyboard.
    await bar.locator("[data-status]").nth(2).hover();
    await expect.poll(() => page.locator(".beat-tip").textContent()).toMatch(/^down at .+: disk full$/);
    await page.mouse.move(0, 0);
    await bar.locator("[tabindex='0']").focus();
    await expect.poll(() => page.locator(".beat-tip").textContent()).toMatch(/^up at .+, 9 ms: run 4$/);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => page.locator(".beat-tip").textContent()).toMatch(/^down at .+: disk full$/);
    await page.keyboard.press("Home");
    await expect.poll(() => page.locator(".beat-tip").textContent()).toMatch(/^up at .+, 10 ms: run 1$/);
    await shot(page, "32-heartbeats-page");
    // A result arrives on the stream: the bar grows without a reload.
    await m.push("?msg=run%205&ping=11");
    await expect.poll(() => statuses("#monitor-beats-title + div"), { timeout: 15_000 }).toEqual(["up", "up", "down", "up", "up"]);
    // The overview's row has the same bar, read with the page.
    await page.goto(`${s.product.url}/`);
    const row = page.locator(`tr[data-monitor="${m.id}"]`);
    await seen(row.getByRole("group", { name: /^Checks of beats push/ }));
    expect(await row.locator(".heartbeats [data-status]").evaluateAll((b) => b.map((e) => e.getAttribute("data-status")))).toEqual([
      "up",
      "up",
      "down",
      "up",
      "up",
    ]);
    await shot(page, "32-heartbeats-overview");
  }, 90_000);

  it("spans the chosen period on the history chart's time axis, even with one point", async () => {
    const { page } = s;
    const m = await pushMonitor("axis push");
    await m.push("?ping=20");
    await page.goto(`${s.product.url}/monitors/${m.id}`);
    const chart = page.locator("figure.time-chart");
    await seen(chart);
    const span = async () => {
      const [min, max] = await chart.evaluate((f) => [Number(f.dataset.xMin), Number(f.dataset.xMax)]);
      return { width: max - min, lag: Date.now() - max };
    };
    await expect.poll(() => chart.getAttribute("data-points")).toBe("1");
    for (const [label, hours] of [
      ["24 h", 24],
      ["1 h", 1],
      ["7 d", 168],
    ] as const) {
      await page.getByRole("group", { name: "Period" }).getByRole("button", { name: label }).click();
      await expect.poll(async () => (await span()).width).toBe(hours * HOUR);
      // It ends now (the browser's clock is this machine's).
      expect(Math.abs((await span()).lag)).toBeLessThan(60_000);
    }
    await shot(page, "32-history-axis");
  }, 60_000);
});
