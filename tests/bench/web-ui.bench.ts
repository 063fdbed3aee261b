// Issue 18: each screen of the web UI loads in under 1 s on the bench inventory. The system Chromium
// (playwright-core) opens each screen afresh (a full navigation, assets from its cache as a returning
// operator has them) and the time is until the screen's data is on it. Skipped without /usr/bin/chromium
// or without a build of the UI (npm run build:web).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { api, type BenchContext, type BenchRow, measure, nextClient } from "./harness.ts";

const CHROMIUM = "/usr/bin/chromium";
const BUILT = fileURLToPath(new URL("../../web/dist/index.html", import.meta.url));
const LOADS = 30;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (!existsSync(CHROMIUM)) return [{ name: "web UI screens", note: "skipped: /usr/bin/chromium is missing" }];
  if (!existsSync(BUILT)) return [{ name: "web UI screens", note: "skipped: no build (npm run build:web)" }];
  const hw = (await api(ctx, "GET", "/api/v1/hardware?limit=1&sort=name")) as { items: Array<{ id: number }> };
  // A monitor that is never due (an hour's interval) on a port nothing listens on, checked once so its
  // page has a result to chart.
  const monitor = (await api(ctx, "POST", "/api/v1/monitors", { name: "bench tcp", check_type: "tcp", host: "127.0.0.1", config: { port: 9 }, interval_secs: 3600, max_retries: 0 })) as { id: number };
  await api(ctx, "POST", `/api/v1/monitors/${monitor.id}/check`);
  const screens: Array<[name: string, path: string, ready: string, loads?: number]> = [
    // The floor: the browser's own cost of a navigation on this machine, no script and no data.
    ["(floor: a static icon, no app)", "/icons/app.svg", "svg"],
    ["overview /", "/", ".tiles .tile-count:not(:has-text('…'))"],
    ["hardware list", "/inventory/hardware", "tbody tr"],
    ["hardware list sorted desc, page 40", "/inventory/hardware?sort=memory_gb&direction=desc&offset=1000", "tbody tr"],
    ["hardware search", "/inventory/hardware?q=srv-1", "nav.pager span"],
    ["services list filtered", "/inventory/services?status=running&sort=environment", "tbody tr"],
    ["compute list", "/inventory/compute", "tbody tr"],
    ["networks list", "/inventory/networks", "tbody tr"],
    ["hardware detail with relations", `/inventory/hardware/${hw.items[0]?.id ?? 1}`, ".relation .count"],
    ["agents", "/agents", "h2"],
    ["storage list", "/inventory/storage", "tbody tr"],
    ["monitor page with its chart", `/monitors/${monitor.id}`, ".time-chart canvas"],
    ["discovery", "/discovery", "h1"],
    ["settings: notifications", "/settings/notifications", "h2"],
    // The whole inventory as a graph: past 1,500 nodes the summary's groups by kind are drawn first, then
    // every node arrives (tens of MB) and the groups can be opened.
    ["topology: groups drawn (summary)", "/topology", "p.meta:has-text('drawn in groups')", 10],
    ["topology: every node loaded, groups open on a tap", "/topology", "p.meta:has-text('Tap a group')", 5],
  ];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  const rows: BenchRow[] = [];
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: "svc_session", value: ctx.token, url: ctx.baseUrl }]);
    const page = await context.newPage();
    for (const [name, path, ready, loads = LOADS] of screens) {
      const m = await measure(
        loads,
        async () => {
          // Each load from its own address, as the API benches do: the per-route rate limit counts per client.
          await page.setExtraHTTPHeaders({ "x-forwarded-for": nextClient() });
          await page.goto(`${ctx.baseUrl}${path}`, { waitUntil: "commit" });
          await page.locator(ready).first().waitFor({ state: "visible", timeout: 30_000 });
        },
        3,
      );
      rows.push({ name: `screen: ${name}`, p50_ms: m.p50, p99_ms: m.p99, note: `${loads} loads, navigation to data shown` });
    }
  } finally {
    await browser.close();
  }
  return rows;
}
