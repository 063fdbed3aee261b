// Smaller console fixes of issue 32 item 5 in a real browser against the product: first run shows a short
// password's error once (at its field); an empty list says there are none yet and how to add one; the sink
// list names its settings ("URL", "Signing secret: set"), says which sinks no route sends to, and the
// signing secret shown once can be copied; a viewer opening Notifications is told so without a refused request.
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, tempDataDir } from "../helpers.ts";
import { hasChromium, launch, seen, shot } from "./browser.ts";

const HOST = "127.0.32.3";
const ADMIN = { email: "fixes@example.com", password: "a long passphrase for fixes" };
const VIEWER = { email: "looker@example.com", password: "a long passphrase for looking" };

describe.skipIf(!hasChromium)("console fixes in a real browser", () => {
  const data = tempDataDir();
  let product: Product;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let bearer = "";
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await product.fetch(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    product = await startProduct({ HOST, DATA_DIR: data.dir, SVC_SETUP_TOKEN: SETUP_TOKEN }, 240_000);
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
    page = await context.newPage();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await killAll();
    data.remove();
  });

  it("first run shows a short password's error once, at the field", async () => {
    await page.goto(product.url);
    await seen(page.getByRole("heading", { name: "Set up the control plane" }));
    await page.getByLabel("Setup token").fill(SETUP_TOKEN);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create administrator" }).click();
    const message = (await (await seen(page.locator("#admin-password-error"))).textContent())!;
    expect(message.length).toBeGreaterThan(0);
    expect(await page.getByLabel("Password").getAttribute("aria-invalid")).toBe("true");
    // Said once: at the field, not again in the form's error line.
    expect(await page.getByRole("alert").count()).toBe(1);
    expect(await page.getByText(message).count()).toBe(1);
    await shot(page, "fixes-first-run-password");

    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Create administrator" }).click();
    await seen(page.getByRole("heading", { name: "Monitoring overview" }));
    const login = await product.fetch("/api/v1/auth/jwt/login", jsonBody(ADMIN));
    bearer = ((await login.json()) as { access_token: string }).access_token;
    // Two browsers sign in below from one address.
    await api("PUT", "/settings", { rate_limit_profile: "relaxed" });
  });

  it("an empty list says there are none yet and how to add one; a search nothing matches says so", async () => {
    await page.goto(`${product.url}/inventory/sites`);
    const empty = await seen(page.locator("p.empty"));
    expect(await empty.textContent()).toBe("No sites yet. Add the first with New site.");
    await empty.getByRole("link", { name: "New site" }).click();
    await seen(page.getByRole("heading", { name: /New site/ }));
    await page.goto(`${product.url}/inventory/sites?q=nowhere`);
    expect(await (await seen(page.locator("p.empty"))).textContent()).toBe("No sites match.");
  });

  it("names a sink's settings, marks a sink no route sends to, and copies the signing secret", async () => {
    await page.goto(`${product.url}/settings/notifications`);
    await seen(page.getByRole("heading", { name: "New sink" }));
    await page.locator("#sink-name").fill("ops hook");
    await page.getByLabel("url", { exact: true }).fill("https://hooks.example.com/alerts");
    await page.getByRole("button", { name: "Create sink" }).click();
    const secret = (await (await seen(page.getByTestId("sink-secret"))).textContent())!;
    expect(secret.length).toBeGreaterThan(16);
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await seen(page.getByRole("button", { name: "Copied" }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, "fixes-sink-secret-copy");
    await page.getByRole("button", { name: "I have copied it" }).click();

    const row = page.locator("tr[data-sink]").filter({ hasText: "ops hook" });
    const settings = row.locator('td[data-label="Settings"]');
    await seen(settings.getByText("URL: https://hooks.example.com/alerts, Signing secret: set"));
    const shown = (await settings.textContent())!;
    expect(shown).not.toContain("secret_set");
    expect(shown).not.toMatch(/\burl:/);
    // No route sends to it yet: the list says so, until one is added.
    const unrouted = page.getByText('The sink "ops hook" receives nothing but tests');
    await seen(unrouted);
    await seen(row.getByText("no route yet"));
    await shot(page, "fixes-sink-unrouted");
    await page.getByLabel("Sink", { exact: true }).selectOption({ label: "ops hook" });
    await page.getByRole("button", { name: "Add route" }).click();
    await seen(page.locator("tr[data-route]").filter({ hasText: "ops hook" }));
    await expect.poll(() => unrouted.count()).toBe(0);
    expect(await row.getByText("no route yet").count()).toBe(0);
  });

  it("tells a viewer they cannot see the notification settings without asking for them", async () => {
    await api("POST", "/admin/users", { ...VIEWER, role: "viewer", must_change_password: false });
    const viewer = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const p = await viewer.newPage();
    const refused: string[] = [];
    p.on("response", (r: Response) => {
      if (r.status() === 403) refused.push(new URL(r.url()).pathname);
    });
    await p.goto(`${product.url}/settings/notifications`);
    await p.getByLabel("Email").fill(VIEWER.email);
    await p.getByLabel("Password").fill(VIEWER.password);
    await p.getByRole("button", { name: "Sign in" }).click();
    await seen(p.getByText("Your role cannot see the notification settings"));
    // Another section loaded after it shows the screen has settled; Notifications asked nothing it was refused.
    await p.getByRole("link", { name: "Vault and rate limits" }).click();
    await seen(p.getByRole("heading", { name: "Rate-limit profile" }));
    expect(refused.filter((path) => path.startsWith("/api/v1/notifications/"))).toEqual([]);
    await viewer.close();
  });
});
