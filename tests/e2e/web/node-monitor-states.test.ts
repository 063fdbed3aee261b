// A node's monitors and states in a real browser (issue 32), against the product started as the README says,
// with a fake TCP target and a webhook receiver in the test:
// - a hardware node watched by an up tcp monitor is up (not `unknown`: its status follows its monitors,
//   docs/adr/0466), and its page lists the monitor with its state, linked to the monitor's page;
// - the topology's node panel lists the same monitor, and the blast radius of a node in `unknown` state
//   says it is unknown (not "is DOWN": docs/adr/0467);
// - a push monitor told its job failed raises an alert delivered to the webhook: its events table says
//   "Delivered to 1 of 1 sink" under Alert, linked to the alert, instead of "—".
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir, until } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.142";
const TARGET_HOST = "127.0.0.143";
const ADMIN = { email: "node-states@example.com", password: "a long passphrase for node states" };

describe.skipIf(!hasChromium)("a node's monitors and states in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const tcp: Server = createServer((socket) => socket.destroy());
  let received = 0;
  const receiver: HttpServer = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end();
    });
  });

  beforeAll(async () => {
    // Alerts go out a second after they are raised, not after the default grouping delay.
    s = await signedIn(HOST, data.dir, ADMIN, { NOTIFICATION_GROUPING_DELAY_S: "1" });
    // The webhook receiver is on loopback, which the outbound policy refuses by default.
    await s.api("PUT", "/settings", {
      rate_limit_profile: "relaxed",
      outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false },
    });
    await new Promise<void>((r) => tcp.listen(0, TARGET_HOST, r));
    await new Promise<void>((r) => receiver.listen(0, TARGET_HOST, r));
  }, 300_000);

  afterAll(async () => {
    await new Promise<void>((r) => tcp.close(() => r()));
    await new Promise<void>((r) => receiver.close(() => r()));
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("a node with an up monitor is up, and its page and its topology panel list the monitor with its state", async () => {
    const { page } = s;
    const node = (await s.api("POST", "/hardware", { name: "edge-sw", ip_address: TARGET_HOST })).id as number;
    await s.api("POST", "/hardware", { name: "lonely-sw" });
    const monitor = (await s.api("POST", "/monitors", {
      name: "edge-sw tcp",
      check_type: "tcp",
      host: TARGET_HOST,
      config: { port: (tcp.address() as { port: number }).port },
      target_type: "hardware",
      target_id: node,
    })) as { id: number };
    await until("the monitor up", async () => ((await s.api("GET", `/monitors/${monitor.id}`)).status === "up" ? true : undefined), 60_000);

    await page.goto(`${s.product.url}/inventory/hardware/${node}`);
    await seen(page.getByRole("heading", { name: "edge-sw", level: 1 }));
    const status = page.locator(".fields div").filter({ has: page.locator("dt", { hasText: /^Status$/ }) });
    await seen(status.locator(".status", { hasText: "up" }));
    const monitors = await seen(page.getByRole("region", { name: "Monitors" }));
    const item = monitors.getByRole("listitem").filter({ hasText: "edge-sw tcp" });
    await seen(item.locator(".status-good", { hasText: "up" }));
    await shot(page, "node-monitors-detail");
    await item.getByRole("link", { name: "edge-sw tcp" }).click();
    await seen(page.getByRole("heading", { name: /edge-sw tcp/, level: 1 }));

    await page.goto(`${s.product.url}/topology`);
    await seen(page.getByRole("heading", { name: "Topology", level: 1 }));
    await page.locator(".node-list").getByRole("button", { name: "edge-sw", exact: true }).click();
    const panel = page.locator(".node-panel");
    await seen(panel.getByRole("heading", { name: "edge-sw", level: 2 }));
    await seen(panel.locator("p .status", { hasText: "up" }));
    const listed = panel.getByRole("region", { name: "Monitors" }).getByRole("listitem").filter({ hasText: "edge-sw tcp" });
    await seen(listed.locator(".status-good", { hasText: "up" }));
    await seen(listed.getByRole("link", { name: "edge-sw tcp" }));
    await shot(page, "node-monitors-topology");
  });

  it("the blast radius of a node in unknown state says it is unknown, not DOWN", async () => {
    const { page } = s;
    await page.locator(".node-list").getByRole("button", { name: "lonely-sw", exact: true }).click();
    const panel = page.locator(".node-panel");
    await seen(panel.getByRole("heading", { name: "lonely-sw", level: 2 }));
    await seen(panel.getByRole("region", { name: "Monitors" }).getByText("No monitor watches it."));
    await panel.getByRole("button", { name: "Show blast radius" }).click();
    const blast = await seen(panel.locator(".blast"));
    await seen(blast.getByText('Hardware node "lonely-sw" is unknown; if it goes DOWN: 0 VMs and 0 services affected.'));
    expect(await blast.textContent()).not.toContain("is DOWN");
  });

  it("says under Alert that a down event's alert was delivered, linking it", async () => {
    const { page } = s;
    const sink = await s.api("POST", "/notifications/sinks", {
      name: "ops hook",
      provider_type: "webhook",
      provider_config: { url: `http://${TARGET_HOST}:${(receiver.address() as { port: number }).port}/hook` },
    });
    await s.api("POST", "/notifications/routes", { sink_id: sink.id });
    const job = await s.api("POST", "/monitors", { name: "nightly backup", check_type: "push" });
    expect((await fetch(`${job.push_url as string}?status=down&msg=job%20failed`)).status).toBe(200);
    const alertId = await until(
      "the alert delivered",
      async () => {
        const open = (await s.api("GET", `/alerts?monitor_id=${job.id as number}`)) as {
          items: { id: number; deliveries: { delivered: number } }[];
        };
        return open.items[0]?.deliveries.delivered === 1 ? open.items[0].id : undefined;
      },
      60_000,
      () => "",
      // Twice a second: the alert waits for the grouping delay, and polling faster is throttled (429).
      500,
    );
    expect(received).toBeGreaterThan(0);

    await page.goto(`${s.product.url}/monitors/${job.id as number}`);
    await seen(page.getByRole("heading", { name: /nightly backup/, level: 1 }));
    const down = await seen(page.locator('tr[data-event="down"]'));
    const link = await seen(down.getByRole("link", { name: "Delivered to 1 of 1 sink" }));
    expect(await link.getAttribute("href")).toBe(`/alerts/${alertId}`);
    expect(await down.locator('td[data-label="Alert"]').textContent()).not.toBe("—");
    await shot(page, "monitor-event-alert-delivered");
  });
});
