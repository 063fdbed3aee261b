// A status page's subscribers in a real browser (docs/status-pages.md, Subscribers), against the product
// started as the README says, with two webhook subscribers on a loopback receiver (the outbound policy
// allows loopback here): one confirmed through the confirmation POST it received, one not.
// - the Subscribers tab lists both with their state, filters by state and searches by address;
// - Remove asks for confirmation, then the subscriber is gone (from the API too);
// - a viewer is told addresses are personal data and no subscriber list is requested.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Peer, startPeer } from "../../helpers/http-peer.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.143";
const ADMIN = { email: "subscribers@example.com", password: "a long passphrase for subscribers" };
const VIEWER = { email: "subscribers-viewer@example.com", password: "viewer passphrase for subscribers" };

describe.skipIf(!hasChromium)("status page subscribers in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  let confirmedHook: Peer;
  let pendingHook: Peer;
  let pageId = 0;

  beforeAll(async () => {
    [confirmedHook, pendingHook] = await Promise.all([startPeer(), startPeer()]);
    // Subscription links need a public address; the receivers are on loopback, which the policy refuses by default.
    await s.api("PUT", "/settings", {
      public_url: s.product.url,
      outbound_policy: { allow_private: false, allow_loopback: true, allow_link_local: false },
    });
    pageId = (await s.api("POST", "/status-pages", { slug: "lab", title: "Lab services", published: true, sections: [] })).id as number;
    for (const hook of [confirmedHook, pendingHook]) {
      const res = await s.product.fetch("/api/v1/status-pages/lab/subscribers", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ webhook_url: `${hook.url}/notices` }),
      });
      expect(res.status).toBe(202);
    }
    // The confirmation reaches the receiver as a delivery (bounded wait), whose confirm_url is POSTed once.
    const until = Date.now() + 30_000;
    while (confirmedHook.received.length === 0) {
      if (Date.now() > until) throw new Error("the webhook subscriber never received its confirmation");
      await new Promise((r) => setTimeout(r, 200));
    }
    const confirmUrl = new URL((JSON.parse(confirmedHook.received[0]!.body) as { data: { confirm_url: string } }).data.confirm_url);
    expect((await s.product.fetch(confirmUrl.pathname, { method: "POST" })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([confirmedHook?.close(), pendingHook?.close()]);
  });

  it("lists, filters, searches and removes subscribers", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/status-pages/${pageId}`);
    await seen(page.getByRole("heading", { name: "Lab services", level: 1 }));
    await page.getByRole("navigation", { name: "Status page screens" }).getByRole("link", { name: "Subscribers" }).click();
    await seen(page.getByRole("heading", { name: "Subscribers of Lab services", level: 1 }));
    const row = (hook: Peer) => page.getByRole("row").filter({ hasText: `${hook.url}/notices` });
    await seen(row(confirmedHook).getByText("confirmed", { exact: true }));
    await seen(row(pendingHook).getByText("awaiting confirmation"));
    await shot(page, "93-status-page-subscribers");

    await page.getByLabel("Show").selectOption("pending");
    await seen(row(pendingHook));
    await expect.poll(() => row(confirmedHook).count()).toBe(0);
    await page.getByLabel("Show").selectOption("");
    await page.getByLabel("Address").fill(confirmedHook.url);
    await page.getByLabel("Address").press("Enter");
    await expect.poll(() => row(pendingHook).count()).toBe(0);
    await seen(row(confirmedHook));

    await row(confirmedHook).getByRole("button", { name: "Remove" }).click();
    const dialog = page.getByRole("dialog");
    await seen(dialog.getByText("They get no more notices from this page"));
    await dialog.getByRole("button", { name: "Remove subscriber" }).click();
    await seen(page.getByText("No subscriber matches."));
    const left = (await s.api("GET", `/status-pages/${pageId}/subscribers`)).items as { address: string }[];
    expect(left.map((x) => x.address)).toEqual([`${pendingHook.url}/notices`]);
  }, 120_000);

  it("tells a viewer that addresses are personal data, and asks the API for none", async () => {
    await s.api("POST", "/admin/users", { ...VIEWER, role: "viewer", must_change_password: false });
    const context = await s.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const p = await context.newPage();
    const asked: string[] = [];
    p.on("request", (r) => {
      if (r.url().includes("/subscribers")) asked.push(r.url());
    });
    try {
      await p.goto(`${s.product.url}/status-pages/${pageId}/subscribers`);
      await p.getByLabel("Email").fill(VIEWER.email);
      await p.getByLabel("Password").fill(VIEWER.password);
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.getByRole("heading", { name: "Subscribers of Lab services", level: 1 }));
      await seen(p.getByText("Subscribers' addresses are personal data"));
      expect(await p.getByRole("table").count()).toBe(0);
      expect(asked.filter((u) => u.includes("/api/v1/"))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
