// Inventory event rules in the console, in a real browser against the product started as the README says:
// the form's refusal of a rule without kinds shown on its field, a rule created with its kinds, tag and
// webhook sink, listed with its filters, and the delivery a matching change queued shown on its page.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.176";
const RECEIVER_HOST = "127.0.0.177";
const ADMIN = { email: "event-rules@example.com", password: "a long passphrase for event rules" };

describe.skipIf(!hasChromium)("event rules in the console, in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const receiver: HttpServer = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    // The webhook receiver is on loopback, which the outbound policy refuses by default.
    await s.api("PUT", "/settings", { outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false } });
    await new Promise<void>((r) => receiver.listen(0, RECEIVER_HOST, r));
  }, 300_000);

  afterAll(async () => {
    await new Promise<void>((r) => receiver.close(() => r()));
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("creates a rule from the form, lists it, and shows the delivery a matching change queued", async () => {
    const { page } = s;
    const port = (receiver.address() as { port: number }).port;
    await s.api("POST", "/notifications/sinks", {
      name: "dns hook",
      provider_type: "webhook",
      provider_config: { url: `http://${RECEIVER_HOST}:${port}/hook` },
    });

    await page.goto(`${s.product.url}/event-rules`);
    await seen(page.getByText("No event rule yet."));
    await page.getByRole("link", { name: "New event rule" }).click();
    await page.getByLabel("Name").fill("dns zone");
    await page.getByLabel("Tag", { exact: true }).fill("dns");
    await page.getByRole("checkbox", { name: "dns hook" }).check();
    // No kind chosen: the API's 422 is shown on the kinds, nothing is written.
    await page.getByRole("button", { name: "Create event rule" }).click();
    await seen(page.getByRole("group", { name: "Kinds" }).getByRole("alert"));
    expect(((await s.api("GET", "/event-rules")) as { total: number }).total).toBe(0);

    await page.getByRole("checkbox", { name: "hardware", exact: true }).check();
    await page.getByRole("button", { name: "Create event rule" }).click();
    await seen(page.getByRole("heading", { name: "dns zone" }));
    await seen(page.getByText("Nothing sent by this rule yet."));
    const { items } = (await s.api("GET", "/event-rules")) as { items: { id: number; kinds: string[]; tag: string; actions: string[] }[] };
    expect(items).toMatchObject([{ kinds: ["hardware"], tag: "dns", actions: ["created", "updated", "deleted"] }]);

    await page.goto(`${s.product.url}/event-rules`);
    const row = await seen(page.getByRole("row").filter({ hasText: "dns zone" }));
    expect(await row.textContent()).toContain("tag dns");
    expect(await row.textContent()).toContain("dns hook");

    // A hardware node with the tag queues a delivery in its own transaction.
    const node = (await s.api("POST", "/hardware", { name: "ns-1", tags: ["dns"] })).id as number;
    await row.getByRole("link", { name: "dns zone" }).click();
    const deliveries = await seen(page.getByRole("region", { name: "Deliveries" }));
    await seen(deliveries.getByText(`created hardware ${node}`));
    await shot(page, "event-rule-deliveries");
  });
});
