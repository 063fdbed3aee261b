// The web UI's live screens against the product started as the README says: the reference agent
// (`npm run agent`) enrolls and an administrator approves it in the browser with its pairing code; a tcp
// monitor's target stops listening and the overview shows it down without a reload (/monitors/stream); a
// scan started in the browser finds a listener, and its result is merged into the inventory.
import { createServer, type Server } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentProcess, spawnAgent, tempDir } from "../agents/support.ts";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, tempDataDir, until } from "../helpers.ts";
import { hasChromium, launch, seen, shot } from "./browser.ts";

const HOST = "127.0.0.123";
const TARGET_HOST = "127.0.0.124";
const ADMIN = { email: "live@example.com", password: "a long passphrase for live" };

describe.skipIf(!hasChromium)("web UI live screens in a real browser", () => {
  const data = tempDataDir();
  const agentState = tempDir("web-agent-");
  let product: Product;
  let browser: Browser;
  let page: Page;
  let agent: AgentProcess | undefined;
  let target: Server | undefined;
  let bearer = "";

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await product.fetch(`/api/v1${path}`, {
      ...(body === undefined ? { method } : { ...jsonBody(body), method }),
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    });
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
    return (res.status === 204 ? {} : await res.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    product = await startProduct({ HOST, DATA_DIR: data.dir, SVC_SETUP_TOKEN: SETUP_TOKEN }, 240_000);
    const init = await product.fetch("/api/v1/bootstrap/initialize", jsonBody({ ...ADMIN, setup_token: SETUP_TOKEN }));
    expect(init.status).toBe(200);
    bearer = ((await init.json()) as { token: string }).token;
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(product.url);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await seen(page.getByRole("heading", { name: "Monitoring overview" }));
  }, 300_000);

  afterAll(async () => {
    agent?.kill();
    await agent?.exited;
    target?.close();
    await browser?.close();
    await killAll();
    data.remove();
    agentState.remove();
  });

  it("approves the reference agent by the pairing code it printed", async () => {
    agent = spawnAgent(["--server", product.url, "--state-dir", agentState.dir, "--log-level", "info"]);
    const code = await until(
      "the pairing code",
      () => /PAIRING CODE:\s+([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(agent!.output())?.[1],
      30_000,
      agent.output,
    );
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
    await seen(page.getByRole("heading", { name: "Pending enrollments" }));
    await page.getByLabel("Pairing code the agent printed").fill(code.toLowerCase());
    await page.getByRole("button", { name: "Look up" }).click();
    await page.getByRole("button", { name: /Approve and/ }).click();
    await seen(page.getByText(/^Approved /));
    await until("the link", () => (/linked as agent \d+/.test(agent!.output()) ? true : undefined), 30_000, agent.output);
    const agents = (await api("GET", "/agents?status=active")) as { items: Array<{ hardware_id: number | null }> };
    expect(agents.items).toHaveLength(1);
    expect(agents.items[0]!.hardware_id).not.toBeNull();
    // Presence arrives over /agents/stream: the row turns "up" without a reload.
    await seen(page.locator("tbody tr").filter({ hasText: "active" }).locator(".status-good").nth(1), 30_000);
    await shot(page, "10-agents-approved");
  }, 90_000);

  it("shows a monitor going down live", async () => {
    target = createServer((s) => s.destroy());
    await new Promise<void>((r) => target!.listen(0, TARGET_HOST, r));
    const port = (target.address() as { port: number }).port;
    const monitor = await api("POST", "/monitors", {
      name: "web tcp",
      check_type: "tcp",
      host: TARGET_HOST,
      config: { port },
      interval_secs: 3600,
      max_retries: 0,
    });
    await api("POST", `/monitors/${String(monitor.id)}/check`);
    await until(
      "the monitor up",
      async () => ((await api("GET", `/monitors/${String(monitor.id)}`)).status === "up" ? true : undefined),
      30_000,
    );
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
    const row = page.locator(`tr[data-monitor="${String(monitor.id)}"]`);
    await seen(row.locator(".status-good"));
    await seen(page.getByText("Live", { exact: true }));
    const url = page.url();

    await new Promise<void>((r) => target!.close(() => r()));
    await api("POST", `/monitors/${String(monitor.id)}/check`);
    await seen(row.locator(".status-bad"), 30_000);
    await seen(page.locator(".tile-down .tile-count").getByText("1", { exact: true }));
    expect(page.url()).toBe(url);
    await shot(page, "11-monitor-down-live");
  }, 90_000);

  it("starts a scan, shows its result and merges it", async () => {
    const listener = createServer((s) => s.destroy());
    await new Promise<void>((r) => listener.listen(0, TARGET_HOST, r));
    const port = (listener.address() as { port: number }).port;
    try {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Discovery" }).click();
      await page.getByLabel("Targets").fill(TARGET_HOST);
      await page.getByLabel("icmp").uncheck();
      await page.getByLabel("TCP ports").fill(String(port));
      await page.getByRole("button", { name: "Start scan" }).click();
      const row = page.locator("tbody tr").filter({ hasText: TARGET_HOST });
      await seen(row.getByRole("button", { name: "Merge" }), 60_000);
      await seen(row.getByText(String(port)));
      await shot(page, "12-discovery-result");
      await row.getByRole("button", { name: "Merge" }).click();
      await seen(row.locator(".status"), 15_000);
      const merged = (await api("GET", `/hardware?q=${TARGET_HOST}`)) as { total: number };
      expect(merged.total).toBe(1);
    } finally {
      listener.close();
    }
  }, 120_000);
});
