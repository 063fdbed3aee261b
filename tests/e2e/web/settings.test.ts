// The settings screens in a real browser against the product started as the README says: an API token
// created and shown once (and working), a webhook sink refused with the API's message on its field, then
// created and sent a test that a receiver on loopback gets, backups and the vault, and a viewer refused
// the administrator's sections.
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir, until } from "../helpers.ts";
import { ARTIFACTS, hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.131";
const RECEIVER_HOST = "127.0.0.132";
const ADMIN = { email: "settings@example.com", password: "a long passphrase for settings" };

describe.skipIf(!hasChromium)("web UI settings in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  let receiver: Server | undefined;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let accepting = false;
  // Polled once a second: the rate limit (60 a minute per route) applies to the test's client too.
  const latestDeliveryState = async () =>
    ((await s.api("GET", "/notifications/deliveries?sort=id&direction=desc")) as { items: Array<{ state: string }> }).items[0]?.state;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    // Several sign-ins below from one address; the webhook receiver is on loopback, which the outbound policy refuses by default.
    await s.api("PUT", "/settings", {
      rate_limit_profile: "relaxed",
      outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false },
    });
  }, 300_000);

  afterAll(async () => {
    if (s) writeFileSync(join(ARTIFACTS, "settings-product.log"), s.product.output());
    receiver?.close();
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("creates an API token and shows it once", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "API tokens" }).click();
    await seen(page.getByRole("heading", { name: "New API token" }));
    await page.getByLabel("Expires in (days)").fill("0");
    await page.getByLabel("Label").fill("ci deploys");
    await page.getByRole("button", { name: "Create token" }).click();
    await seen(page.locator("#token-days-error"));
    expect(await s.api("GET", "/auth/api-tokens")).toHaveLength(0);

    await page.getByLabel("Expires in (days)").fill("30");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await (await seen(page.getByTestId("new-token"))).textContent())!;
    expect(token.length).toBeGreaterThan(20);
    await shot(page, "20-api-token-shown-once");
    // The token works, and once dismissed it is nowhere on the page, nor after a reload (only its prefix).
    const me = await s.product.fetch("/api/v1/auth/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    await page.getByRole("button", { name: "I have copied it" }).click();
    await seen(page.locator("tr[data-token]").filter({ hasText: "ci deploys" }));
    expect(await page.content()).not.toContain(token);
    await page.reload();
    await seen(page.locator("tr[data-token]").filter({ hasText: "ci deploys" }));
    expect(await page.content()).not.toContain(token);

    // Revoking asks first; then the token stops working.
    page.once("dialog", (d) => void d.accept());
    await page.locator("tr[data-token]").getByRole("button", { name: "Revoke" }).click();
    await seen(page.locator("tr[data-token]").getByText("revoked"));
    expect((await s.product.fetch("/api/v1/auth/me", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it("makes a Prometheus service-discovery token that reads its targets and nothing else", async () => {
    const { page } = s;
    await seen(page.getByRole("heading", { name: "New API token" }));
    await page.getByLabel("Label").fill("prometheus sd");
    await page.getByLabel("read:prometheus-sd").check();
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await (await seen(page.getByTestId("new-token"))).textContent())!;
    const as = (path: string) => s.product.fetch(path, { headers: { authorization: `Bearer ${token}` } });
    expect((await as("/api/v1/sd/prometheus")).status).toBe(200);
    expect((await as("/api/v1/hardware")).status).toBe(403);
    await page.getByRole("button", { name: "I have copied it" }).click();
  });

  it("creates a webhook sink (its 422 on the field first) and sends a test to a receiver", async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(accepting ? 200 : 500).end();
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, RECEIVER_HOST, r));
    const port = (receiver.address() as { port: number }).port;
    const { page } = s;
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Notifications" }).click();
    await seen(page.getByRole("heading", { name: "New sink" }));
    await page.getByLabel("Name").fill("ops webhook");
    await page.getByLabel("url", { exact: true }).fill("not a url");
    await page.getByRole("button", { name: "Create sink" }).click();
    const error = await seen(page.locator("#sink-url-error"));
    expect(await error.textContent()).toContain("url");
    expect(await page.getByLabel("url", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await shot(page, "21-sink-422");
    expect((await s.api("GET", "/notifications/sinks")).total).toBe(0);

    await page.getByLabel("url", { exact: true }).fill(`http://${RECEIVER_HOST}:${port}/hook`);
    await page.getByRole("button", { name: "Create sink" }).click();
    await seen(page.getByText(/signing secret, shown this once/));
    const row = page.locator("tr[data-sink]").filter({ hasText: "ops webhook" });
    await row.getByRole("button", { name: "Send a test" }).click();
    // The test waits for the receiver's answer and shows it; a refused test is not retried: it is dead.
    await seen(page.getByText('Test to "ops webhook": Failed: Endpoint returned HTTP 500'), 30_000);
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toContain("Test notification");
    await expect.poll(latestDeliveryState, { timeout: 30_000, interval: 1000 }).toBe("dead");
    await page.getByLabel("State").selectOption("dead");
    const dead = page.locator("tr[data-delivery]").filter({ hasText: "Test notification" });
    await seen(dead.getByText("dead", { exact: true }));
    await seen(dead.getByText("Endpoint returned HTTP 500"));
    await shot(page, "22-notifications-dead-letter");

    // Replayed once the receiver answers, it is delivered.
    accepting = true;
    const before = received.length;
    await dead.getByRole("button", { name: "Replay" }).click();
    await until("the replay at the receiver", () => (received.length > before ? true : undefined), 30_000);
    await expect.poll(latestDeliveryState, { timeout: 30_000, interval: 1000 }).toBe("delivered");
    await page.getByLabel("State").selectOption("");
    await seen(page.locator("tr[data-delivery]").filter({ hasText: "Test notification" }).getByText("delivered"));
    await shot(page, "23-notifications-replayed");
  }, 180_000);

  it("takes a backup and lists it for download; shows the vault and the rate-limit profile", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Backups" }).click();
    await page.getByRole("button", { name: "Take a backup now" }).click();
    await seen(page.getByText(/^Backup .* taken/), 60_000);
    const link = await seen(page.locator("td a[download]"));
    const href = (await link.getAttribute("href"))!;
    const download = await page.evaluate(async (h) => (await fetch(h)).status, href);
    expect(download).toBe(200);
    await shot(page, "24-backups");

    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Vault and rate limits" }).click();
    await seen(page.getByRole("heading", { name: "Vault" }));
    // The heading is drawn before the stored settings arrive: wait for the select to show them.
    const profile = () => page.getByLabel("Profile", { exact: true }).inputValue();
    await until(
      "the stored profile shown",
      async () => ((await profile()) === "relaxed" ? true : undefined),
      15_000,
      () => "",
      100,
    ).catch(() => {});
    expect(await profile()).toBe("relaxed");
    await page.getByLabel("Profile", { exact: true }).selectOption("normal");
    await page.getByRole("button", { name: "Save" }).click();
    await seen(page.getByText("The normal profile applies from now on."));
    expect((await s.api("GET", "/settings")).rate_limit_profile).toBe("normal");
    await shot(page, "25-vault-rate-limits");
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
  }, 90_000);

  it("changes a user's role and deactivates them; a viewer is refused the administrator's sections", async () => {
    const { page } = s;
    await s.api("POST", "/admin/users", {
      email: "watcher@example.com",
      role: "viewer",
      password: "watcher passphrase 123",
      must_change_password: false,
    });
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Users and roles" }).click();
    const row = page.locator("tr[data-user]").filter({ hasText: "watcher@example.com" });
    await seen(row);
    await row.getByLabel("Role of watcher@example.com").selectOption("editor");
    const roleOf = async () => ((await s.api("GET", "/admin/users?q=watcher")) as { items: Array<{ role: string }> }).items[0]?.role;
    await expect.poll(roleOf, { timeout: 15_000, interval: 500 }).toBe("editor");
    await shot(page, "26-users");

    await s.api(
      "PATCH",
      `/admin/users/${String(((await s.api("GET", "/admin/users?q=watcher")) as { items: Array<{ id: number }> }).items[0]!.id)}`,
      { role: "viewer" },
    );
    const viewer = await s.browser.newContext({ viewport: { width: 1000, height: 800 } });
    const p = await viewer.newPage();
    await p.goto(`${s.product.url}/settings/notifications`);
    await p.getByLabel("Email").fill("watcher@example.com");
    await p.getByLabel("Password").fill("watcher passphrase 123");
    await p.getByRole("button", { name: "Sign in" }).click();
    await seen(p.getByText("Your role cannot see the notification settings"));
    await p.getByRole("link", { name: "Backups" }).click();
    await seen(p.getByText("Your role cannot see the backups"));
    await p.getByRole("link", { name: "Vault and rate limits" }).click();
    await seen(p.getByRole("heading", { name: "Rate-limit profile" }));
    expect(await p.getByLabel("Profile", { exact: true }).isDisabled()).toBe(true);
    await shot(p, "27-settings-viewer");
    await viewer.close();

    await row.getByRole("button", { name: "Deactivate" }).click();
    await seen(row.getByRole("button", { name: "Reactivate" }));
    const after = (await s.api("GET", "/admin/users?q=watcher")) as { items: Array<{ is_active: boolean }> };
    expect(after.items[0]!.is_active).toBe(false);
  }, 90_000);
});
