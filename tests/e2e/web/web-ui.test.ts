// The web UI against the product started as the README says (`npm start`, which builds the UI first):
// first run, sign-out and sign-in, creating a hardware node with a validation error shown on its field,
// editing it while someone else changes it (the 412 is shown, not overwritten), a forced password change
// and a viewer who sees everything read-only. Screenshots of each screen in test-artifacts/web-ui.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RealOidc, startRealOidc } from "../../helpers/oidc-provider.ts";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, tempDataDir, until } from "../helpers.ts";
import { hasChromium, launch, seen, shot } from "./browser.ts";

const HOST = "127.0.0.122";
const OIDC_HOST = "127.0.0.125";
const ADMIN = { email: "admin@example.com", password: "a long passphrase here" };

if (!hasChromium) console.warn("web UI tests skipped: /usr/bin/chromium is missing (apt-get install chromium; .ci/run installs it)");

describe.skipIf(!hasChromium)("web UI in a real browser", () => {
  const data = tempDataDir();
  let product: Product;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let bearer = "";
  let op: RealOidc | undefined;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await product.fetch(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
  };

  beforeAll(async () => {
    product = await startProduct({ HOST, DATA_DIR: data.dir, SVC_SETUP_TOKEN: SETUP_TOKEN }, 240_000);
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
  }, 300_000);

  afterAll(async () => {
    await op?.close();
    await browser?.close();
    await killAll();
    data.remove();
  });

  it("serves the app at / and index.html for a screen's path, JSON 404s under /api", async () => {
    const root = await product.fetch("/");
    expect(root.status).toBe(200);
    expect(root.headers.get("content-type")).toContain("text/html");
    expect(await root.text()).toContain('<div id="app">');
    const deep = await product.fetch("/inventory/hardware/12/edit");
    expect(deep.status).toBe(200);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await deep.text())?.[1];
    const asset = await product.fetch(script!);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    const api404 = await product.fetch("/api/v1/no-such-route");
    expect(api404.status).toBe(404);
    expect(await api404.json()).toMatchObject({ error_code: "RESOURCE_NOT_FOUND" });
    expect((await product.fetch("/assets/missing.js")).status).toBe(404);
  });

  it("first run creates the administrator and signs them in", async () => {
    await page.goto(product.url);
    await seen(page.getByRole("heading", { name: "Set up the control plane" }));
    await shot(page, "01-first-run");
    await page.getByLabel("Setup token").fill("wrong-token-000000");
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Create administrator" }).click();
    await seen(page.getByRole("alert"));
    await page.getByLabel("Setup token").fill(SETUP_TOKEN);
    await page.getByRole("button", { name: "Create administrator" }).click();
    await seen(page.getByRole("heading", { name: "Monitoring overview" }));
    await shot(page, "02-overview");
    const login = await product.fetch("/api/v1/auth/jwt/login", jsonBody(ADMIN));
    bearer = ((await login.json()) as { access_token: string }).access_token;
    // The sign-ins below (an admin's and a viewer's) go past the normal profile's 5 a minute from one address.
    expect((await api("PUT", "/settings", { rate_limit_profile: "relaxed" })).status).toBe(200);
    // The product reads the profile through a cache of a few seconds: wait until its answers carry the
    // relaxed limit of plain reads (60 a minute), or a fast run signs the viewer in under the normal one.
    const readLimit = async () =>
      (await product.fetch("/api/v1/settings", { headers: { authorization: `Bearer ${bearer}` } })).headers.get("ratelimit-limit");
    await until(
      "the relaxed profile in effect",
      async () => ((await readLimit()) === "60" ? true : undefined),
      10_000,
      () => "",
      500,
    );
  });

  it("signs out and back in", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await seen(page.getByRole("heading", { name: "Sign in" }));
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("not the password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await seen(page.locator(".notice-error"));
    await shot(page, "03-sign-in-refused");
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await seen(page.getByRole("heading", { name: "Monitoring overview" }));
  });

  it("creates a hardware node, showing the API's 422 on its field first", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Hardware" }).click();
    await seen(page.getByRole("heading", { name: "Hardware" }));
    // The header's button (an empty list links to the form too).
    await page.locator(".page-head").getByRole("link", { name: "New hardware node" }).click();
    await page.getByLabel("Name").fill("web-node-1");
    await page.getByLabel("IP address").fill("not an address");
    await page.getByLabel("Memory (GB)").fill("64");
    await page.getByRole("button", { name: "Create hardware node" }).click();
    const fieldError = await seen(page.locator("#field-ip_address-error"));
    expect(await fieldError.textContent()).toBeTruthy();
    expect(await page.getByLabel("IP address").getAttribute("aria-invalid")).toBe("true");
    await shot(page, "04-create-422");
    expect((await api("GET", "/hardware?q=web-node-1")).body.total).toBe(0);

    await page.getByLabel("IP address").fill("10.20.0.5");
    await page.getByRole("button", { name: "Create hardware node" }).click();
    await seen(page.getByRole("heading", { name: "web-node-1" }));
    await shot(page, "05-detail");
    const list = await api("GET", "/hardware?q=web-node-1");
    expect(list.body.total).toBe(1);
    expect((list.body.items as Array<Record<string, unknown>>)[0]).toMatchObject({ ip_address: "10.20.0.5", memory_gb: 64 });
  });

  it("shows a concurrent edit (412) instead of overwriting it", async () => {
    await page.getByRole("link", { name: "Edit" }).click();
    await seen(page.getByRole("heading", { name: "Edit web-node-1" }));
    await page.getByLabel("Role").fill("hypervisor");
    // Someone else saves a change while the form is open.
    const id = ((await api("GET", "/hardware?q=web-node-1")).body.items as Array<{ id: number }>)[0]!.id;
    expect((await api("PATCH", `/hardware/${id}`, { notes: "changed elsewhere" })).status).toBe(200);
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("Someone else changed this record"));
    await shot(page, "06-edit-412");
    const stored = (await api("GET", `/hardware/${id}`)).body;
    expect(stored).toMatchObject({ notes: "changed elsewhere", role: null });

    await page.getByRole("button", { name: "Load their version" }).click();
    await expect.poll(() => page.getByLabel("Notes").inputValue(), { timeout: 15_000 }).toBe("changed elsewhere");
    await page.getByLabel("Role").fill("hypervisor");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByRole("heading", { name: "web-node-1" }));
    expect((await api("GET", `/hardware/${id}`)).body).toMatchObject({ notes: "changed elsewhere", role: "hypervisor" });
  });

  it("lists, searches and sorts through the list envelope", async () => {
    for (const name of ["alpha-node", "zulu-node"]) expect((await api("POST", "/hardware", { name, role: "server" })).status).toBe(201);
    await page.goto(`${product.url}/inventory/hardware`);
    await seen(page.getByRole("link", { name: "zulu-node" }));
    await page.getByRole("button", { name: "Name" }).click();
    await page.waitForURL(/direction=desc/);
    await seen(page.locator("tbody tr").first().getByRole("link", { name: "zulu-node" }));
    await page.getByRole("searchbox").fill("alpha");
    await page.waitForURL(/q=alpha/);
    await seen(page.getByText("1–1 of 1"));
    await shot(page, "07-list-search");
  });

  it("makes a user with a set password choose one, and shows a viewer everything read-only", async () => {
    const created = await api("POST", "/admin/users", {
      email: "viewer@example.com",
      role: "viewer",
      password: "first password 123",
      must_change_password: true,
    });
    expect(created.status).toBe(201);
    const viewer = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
    const p = await viewer.newPage();
    await p.goto(`${product.url}/inventory/hardware`);
    await p.getByLabel("Email").fill("viewer@example.com");
    await p.getByLabel("Password").fill("first password 123");
    await p.getByRole("button", { name: "Sign in" }).click();
    await seen(p.getByRole("heading", { name: "Choose a new password" }));
    await p.getByLabel("New password", { exact: true }).fill("the viewer's own passphrase");
    await p.getByLabel("New password again").fill("the viewer's own passphrase");
    await p.getByRole("button", { name: "Continue" }).click();
    await seen(p.getByRole("heading", { name: "Hardware" }));
    await seen(p.getByText("read-only"));
    expect(await p.getByRole("link", { name: /New hardware node/ }).count()).toBe(0);
    await shot(p, "08-viewer-phone-dark");
    await p.getByRole("link", { name: "web-node-1" }).click();
    await seen(p.getByRole("heading", { name: "web-node-1" }));
    expect(await p.getByRole("link", { name: "Edit" }).count()).toBe(0);
    expect(await p.getByRole("button", { name: "Delete" }).count()).toBe(0);
    await viewer.close();
  });

  it("signs in through an OpenID provider with the provider's button", async () => {
    op = await startRealOidc(`${product.url}/api/v1/auth/oauth/oidc/op/callback`, OIDC_HOST);
    // The provider is on loopback, which the outbound policy refuses unless allowed.
    expect(
      (
        await api("PUT", "/settings", {
          public_url: product.url,
          outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false },
        })
      ).status,
    ).toBe(200);
    const providers = {
      op: { issuer: op.issuer, client_id: op.clientId, client_secret: op.clientSecret, enabled: true, allow_registration: true },
    };
    expect((await api("PATCH", "/settings/oauth", { providers })).status).toBe(200);
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await p.goto(product.url);
    await p.getByRole("link", { name: /^Sign in with / }).click();
    await seen(p.getByRole("heading", { name: "Monitoring overview" }), 30_000);
    await seen(p.getByText(op.account.name));
    expect(new URL(p.url()).search).toBe("");
    await ctx.close();
  });
});
