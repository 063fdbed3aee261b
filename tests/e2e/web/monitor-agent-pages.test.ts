// A monitor's page and an agent's page in a real browser, against the product started as the README says:
// - a tcp monitor's target stops listening and its page (opened from the overview) shows it down without
//   a reload (/monitors/stream), its history chart drawn with the up and the down result, and the down
//   event listed; it is paused and resumed there;
// - a switch and a service on it, each with a tcp monitor, go down together: the service's alert is folded
//   into the switch's by the delivery worker, and the service monitor's page says so, naming and linking
//   the switch's monitor and node, in its notice and in its events, and the switch's page names it back;
// - the reference agent (in-process, sampling every second) is approved; its page (opened from the agents
//   list) draws CPU, memory and disk charts from its telemetry, an administrator changes its grants and
//   revokes it through the confirmation dialog, and it shows revoked;
// - a viewer sees both pages without their action buttons (the agent's in the dark theme).
import { createServer, type Server } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgent, serverKeyOf, stopAgents, TEST_GRANTS, until } from "../agents/support.ts";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.200";
const API_HOST = "127.0.0.201";
const SWITCH_HOST = "127.0.0.202";
const WEB_HOST = "127.0.0.203";
const ADMIN = { email: "pages@example.com", password: "a long passphrase for pages" };
const VIEWER = { email: "pages-viewer@example.com", password: "viewer passphrase for pages" };

/** A TCP listener on `host` that the test closes: the monitored thing going down. */
async function listener(host: string): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(0, host, r));
  return { port: (server.address() as { port: number }).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.skipIf(!hasChromium)("a monitor's page and an agent's page in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const open: Array<{ close(): Promise<void> }> = [];
  let agentId = 0;
  const monitorIds: Record<string, number> = {};

  const statusOf = async (id: number) => (await s.api("GET", `/monitors/${id}`)).status;
  const check = async (id: number, want: string) => {
    await s.api("POST", `/monitors/${id}/check`);
    // Polled gently: reads are rate limited per route.
    await expect.poll(() => statusOf(id), { timeout: 30_000, interval: 500 }).toBe(want);
  };
  const tcpMonitor = async (name: string, host: string, port: number, target?: { target_type: string; target_id: number }) =>
    (await s.api("POST", "/monitors", { name, check_type: "tcp", host, config: { port }, interval_secs: 3600, max_retries: 0, ...target }))
      .id as number;
  const chartPoints = async (page: Page, caption: RegExp) =>
    Number(await page.locator("figure.time-chart").filter({ hasText: caption }).getAttribute("data-points"));

  beforeAll(async () => {
    // A short grouping delay: the service's alert is folded into the switch's a second after both fail.
    s = await signedIn(HOST, data.dir, ADMIN, { NOTIFICATION_GROUPING_DELAY_S: "1" });
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
  }, 300_000);

  afterAll(async () => {
    stopAgents();
    await Promise.all(open.map((l) => l.close().catch(() => undefined)));
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("shows a monitor going down on its page live, with its chart and the event", async () => {
    const { page } = s;
    const target = await listener(API_HOST);
    open.push(target);
    const id = await tcpMonitor("api tcp", API_HOST, target.port);
    monitorIds.api = id;
    await check(id, "up");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
    await page.locator(`tr[data-monitor="${id}"]`).getByRole("link", { name: "api tcp" }).click();
    const heading = page.getByRole("heading", { name: /api tcp/, level: 1 });
    await seen(heading.locator(".status-good"));
    await seen(page.getByText("Live", { exact: true }));
    await seen(page.locator("tr[data-event='up']"));
    // Marks this document: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    await target.close();
    await s.api("POST", `/monitors/${id}/check`);
    await seen(heading.locator(".status-bad"), 30_000);
    await seen(page.locator("tr[data-event='down']").getByText("down", { exact: true }), 15_000);
    await expect.poll(() => chartPoints(page, /Latency and state/), { timeout: 15_000, interval: 250 }).toBeGreaterThanOrEqual(2);
    // uPlot drew on its canvas, and its legend reads the last result.
    expect(await page.locator("figure.time-chart canvas").count()).toBeGreaterThan(0);
    await seen(page.locator("figure.time-chart .u-legend"));
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await shot(page, "40-monitor-page-down-live");

    await page.getByRole("button", { name: "Pause" }).click();
    await seen(heading.getByText("paused", { exact: true }));
    await seen(page.locator("tr[data-event='paused']"));
    expect(await page.getByRole("button", { name: "Check now" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Resume" }).click();
    await seen(page.locator("tr[data-event='resumed']"));
    await seen(page.getByRole("button", { name: "Pause" }));
    expect((await s.api("GET", `/monitors/${id}`)).enabled).toBe(true);
  }, 120_000);

  it("shows a dependent monitor's alert suppressed, naming the upstream that was down first", async () => {
    const { page } = s;
    const sw = await s.api("POST", "/hardware", { name: "edge-switch", role: "switch" });
    const svc = await s.api("POST", "/services", { name: "shop-web", hardware_id: sw.id });
    const blast = (await s.api("GET", `/intel/blast-radius/hardware/${String(sw.id)}`)) as {
      impacted_services: Array<{ asset_id: number }>;
    };
    expect(blast.impacted_services.map((x) => x.asset_id)).toContain(svc.id);
    const [switchTarget, webTarget] = await Promise.all([listener(SWITCH_HOST), listener(WEB_HOST)]);
    open.push(switchTarget, webTarget);
    const switchId = await tcpMonitor("edge-switch tcp", SWITCH_HOST, switchTarget.port, {
      target_type: "hardware",
      target_id: sw.id as number,
    });
    const webId = await tcpMonitor("shop-web tcp", WEB_HOST, webTarget.port, { target_type: "service", target_id: svc.id as number });
    monitorIds.web = webId;
    await check(switchId, "up");
    await check(webId, "up");

    await page.goto(`${s.product.url}/monitors/${webId}`);
    await seen(page.getByRole("heading", { name: /shop-web tcp/, level: 1 }).locator(".status-good"));
    await seen(page.getByText("Live", { exact: true }));
    await seen(page.getByRole("link", { name: "service shop-web" }));
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    // The switch fails first; its alert waits until the service behind it has been checked again, and
    // the service's failure is folded into it.
    await Promise.all([switchTarget.close(), webTarget.close()]);
    await check(switchId, "down");
    await check(webId, "down");

    const notice = page.locator(".suppression");
    await seen(notice, 30_000);
    await seen(notice.getByRole("link", { name: "edge-switch tcp" }));
    await seen(notice.getByRole("link", { name: "hardware node edge-switch" }));
    const row = page.locator("tr[data-event='down']");
    await seen(row.getByText("Suppressed", { exact: true }));
    await seen(row.getByRole("link", { name: "edge-switch tcp" }));
    // The fold came a grouping delay after the down event, over the stream: the page was not reloaded.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await shot(page, "41-monitor-page-suppressed");

    // The upstream's own page: its alert was the one sent, naming the service's monitor behind it.
    await row.getByRole("link", { name: "edge-switch tcp" }).click();
    await seen(page.getByRole("heading", { name: /edge-switch tcp/, level: 1 }).locator(".status-bad"));
    await seen(page.locator(".folded-notice").getByRole("link", { name: "shop-web tcp" }));
    await seen(page.locator("tr[data-event='down']").getByRole("link", { name: "shop-web tcp" }));
    expect(await page.locator(".suppression").count()).toBe(0);
    expect(await page.locator("tr.event-suppressed").count()).toBe(0);
    await shot(page, "41b-monitor-page-upstream");
  }, 120_000);

  it("draws an agent's telemetry, changes its grants and revokes it after confirmation", async () => {
    const { page } = s;
    const agent = runAgent({
      serverUrl: s.product.url,
      serverKey: await serverKeyOf(s.product),
      name: "pages-agent",
      telemetryIntervalMs: 1000,
      backoff: { maxMs: 3000 },
    });
    const code = await until(
      "the pairing code",
      () => {
        const e = agent.events.find((x) => x.type === "pairing_code");
        return e?.type === "pairing_code" ? e.code : undefined;
      },
      30_000,
    );
    agentId = code.agent_id!;
    await s.api("POST", `/agents/${agentId}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS });
    await until("the link", () => (agent.linkedCount() > 0 ? true : undefined), 30_000);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
    await page.locator(`a[href="/agents/${agentId}"]`).click();
    await seen(page.getByRole("heading", { name: /pages-agent/, level: 1 }).locator(".status-good"));
    await seen(page.getByRole("heading", { name: "Telemetry" }));
    // The 1 h range averages into 30 s buckets: two of them hold samples within about a minute.
    for (const caption of [/^CPU use/, /^Memory use/, /^Root disk use/])
      await expect.poll(() => chartPoints(page, caption), { timeout: 90_000, interval: 1000 }).toBeGreaterThanOrEqual(2);
    expect(await page.locator(".chart-grid figure canvas").count()).toBeGreaterThanOrEqual(3);
    await seen(page.getByText(/^Latest frame /));
    await shot(page, "42-agent-page-telemetry");

    await page.getByRole("button", { name: "Edit capabilities" }).click();
    await page.getByLabel("Local discovery settings (JSON)").fill("not json");
    await page.getByRole("button", { name: "Save capabilities" }).click();
    await seen(page.getByText("Must be a JSON object of settings"));
    await page.getByLabel("Local discovery settings (JSON)").fill("{}");
    await page.getByLabel("Host telemetry settings (JSON)").fill('{"interval_s": 30}');
    await page.getByRole("button", { name: "Save capabilities" }).click();
    await seen(page.getByText(/^Grants saved/));
    await seen(page.locator("[data-capability='host_telemetry']").getByText("interval_s: 30"));
    const grants = (await s.api("GET", `/agents/${agentId}`)).capabilities as { host_telemetry: { config: { interval_s: number } } };
    expect(grants.host_telemetry.config.interval_s).toBe(30);

    await page.getByRole("button", { name: "Revoke…" }).click();
    const dialog = page.getByRole("dialog", { name: /Revoke pages-agent/ });
    await seen(dialog);
    expect(await dialog.getByRole("button", { name: "Revoke", exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel(/^Reason/).fill("host decommissioned");
    await shot(page, "43-agent-revoke-dialog");
    await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
    await seen(page.getByText("pages-agent is revoked."));
    await seen(page.getByRole("heading", { name: /pages-agent/, level: 1 }).getByText("revoked"));
    await seen(page.getByText("Revoked: host decommissioned"));
    await seen(page.locator("tr[data-event='revoked']"));
    expect(await page.getByRole("button", { name: "Revoke…" }).count()).toBe(0);
    expect((await s.api("GET", `/agents/${agentId}`)).status).toBe("revoked");
    await shot(page, "44-agent-page-revoked");
  }, 240_000);

  it("shows a viewer both pages without their actions", async () => {
    await s.api("POST", "/admin/users", { ...VIEWER, role: "viewer", must_change_password: false });
    const context = await s.browser.newContext({ viewport: { width: 1000, height: 900 } });
    const p = await context.newPage();
    try {
      await p.goto(`${s.product.url}/monitors/${monitorIds.web}`);
      await p.getByLabel("Email").fill(VIEWER.email);
      await p.getByLabel("Password").fill(VIEWER.password);
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.getByRole("heading", { name: /shop-web tcp/, level: 1 }));
      await seen(p.getByText("Checking, pausing and resuming need the write:monitors scope."));
      expect(await p.getByRole("button", { name: "Check now" }).count()).toBe(0);
      expect(await p.getByRole("button", { name: "Pause" }).count()).toBe(0);
      // The suppression is read-only information: a viewer sees it too.
      await seen(p.locator(".suppression").getByRole("link", { name: "edge-switch tcp" }));

      await p.goto(`${s.product.url}/agents/${agentId}`);
      await seen(p.getByRole("heading", { name: /pages-agent/, level: 1 }));
      await seen(p.getByText("Updating, revoking and changing grants need the admin:agents scope."));
      expect(await p.getByRole("button", { name: "Edit capabilities" }).count()).toBe(0);
      await seen(p.getByText("Only an active agent sends telemetry"));
      expect(await p.getByText("Host telemetry is not granted").count()).toBe(0);
      await p.getByLabel("Theme").selectOption("dark");
      await shot(p, "45-agent-page-viewer-dark");
    } finally {
      await context.close();
    }
  }, 60_000);
});
