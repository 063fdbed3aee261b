// The sign-in providers, general settings and branding screens in a real browser against the product
// started as the README says: two general settings changed (one refused with the API's 422 on its field
// first) and kept after a reload; an OIDC provider refused for a bad name and a bad issuer URL, then added
// against a real `oidc-provider` on loopback, its secret shown as set and never echoed, and the sign-in
// page offering its button, which signs in; a branding logo refused for not being an image, then uploaded
// and previewed with a favicon; a viewer sees providers and branding read-only and not the general settings.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RealOidc, startRealOidc } from "../../helpers/oidc-provider.ts";
import { killAll, tempDataDir } from "../helpers.ts";
import { ARTIFACTS, hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.246";
const OIDC_HOST = "127.0.0.247";
const ADMIN = { email: "oauth-settings@example.com", password: "a long passphrase for oauth settings" };
const VIEWER = { email: "looker@example.com", password: "looker passphrase 123" };

describe.skipIf(!hasChromium)("web UI sign-in providers and general settings in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  let op: RealOidc | undefined;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    // Several sign-ins below from one address.
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
  }, 300_000);

  afterAll(async () => {
    if (s) writeFileSync(join(ARTIFACTS, "oauth-general-settings-product.log"), s.product.output());
    await op?.close();
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("changes general settings, a refused value first, and keeps them after a reload", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "General" }).click();
    await seen(page.getByRole("heading", { name: "General settings" }));
    await page.getByLabel("Public URL").fill(s.product.url);
    await page.getByLabel("Session lifetime (hours)").fill("0");
    await page.getByRole("button", { name: "Save settings" }).click();
    await seen(page.locator("#setting-session_timeout_hours-error"));
    expect(await page.getByLabel("Session lifetime (hours)").getAttribute("aria-invalid")).toBe("true");
    await shot(page, "60-general-settings-422");
    // Refused whole: nothing was written.
    expect((await s.api("GET", "/settings")).public_url).toBe("");

    await page.getByLabel("Session lifetime (hours)").fill("12");
    // The provider below is on loopback, which the outbound policy refuses unless allowed.
    await page.getByLabel("Loopback", { exact: true }).check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await seen(page.getByText(/^Saved: /));
    expect(await page.getByText(/^Saved: /).textContent()).toBe("Saved: public_url, session_timeout_hours, outbound_policy.");
    const stored = await s.api("GET", "/settings");
    expect(stored.public_url).toBe(s.product.url);
    expect(stored.session_timeout_hours).toBe(12);
    expect(stored.outbound_policy).toMatchObject({ allow_loopback: true });

    await page.reload();
    await seen(page.getByRole("heading", { name: "General settings" }));
    expect(await page.getByLabel("Public URL").inputValue()).toBe(s.product.url);
    expect(await page.getByLabel("Session lifetime (hours)").inputValue()).toBe("12");
    expect(await page.getByLabel("Loopback", { exact: true }).isChecked()).toBe(true);
    await shot(page, "61-general-settings-saved");
  }, 90_000);

  it("adds an OIDC provider (a bad issuer refused first) whose button signs in", async () => {
    const { page } = s;
    const callback = `${s.product.url}/api/v1/auth/oauth/oidc/corp/callback`;
    op = await startRealOidc(callback, OIDC_HOST);
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Sign-in providers" }).click();
    await seen(page.getByRole("heading", { name: "New sign-in provider" }));
    await page.getByLabel("Name", { exact: true }).fill("Corp SSO");
    await page.getByRole("button", { name: "Add provider" }).click();
    expect(await (await seen(page.locator("#oauth-new-name-error"))).textContent()).toContain("lower-case");
    await page.getByLabel("Name", { exact: true }).fill("corp");
    // The callback URL to register with the provider is shown from the public_url set above.
    expect(await (await seen(page.getByTestId("oauth-new-callback"))).textContent()).toBe(callback);
    await page.getByLabel("Button label (optional)").fill("Corp SSO");
    await page.getByLabel("Issuer URL").fill("not a url");
    await page.getByLabel("Client id").fill(op.clientId);
    await page.getByLabel("Client secret").fill(op.clientSecret);
    await page.getByLabel("Create an account on the first sign-in of someone unknown").check();
    await page.getByLabel("Enabled (offered on the sign-in page)").check();
    await page.getByRole("button", { name: "Add provider" }).click();
    const error = await seen(page.locator("#oauth-new-issuer-error"));
    expect(await error.textContent()).toContain("issuer");
    await shot(page, "62-oauth-provider-422");
    expect((await s.api("GET", "/settings/oauth")).providers).toEqual({});

    await page.getByLabel("Issuer URL").fill(op.issuer);
    await page.getByRole("button", { name: "Add provider" }).click();
    const row = page.locator("tr[data-provider='corp']");
    await seen(row);
    await seen(row.getByText("secret set"));
    await seen(row.getByText(callback));
    expect(await page.content()).not.toContain(op.clientSecret);
    const stored = (await s.api("GET", "/settings/oauth")).providers as Record<string, Record<string, unknown>>;
    expect(stored.corp).toMatchObject({
      type: "oidc",
      issuer: op.issuer,
      client_id: op.clientId,
      enabled: true,
      allow_registration: true,
      client_secret_set: true,
      label: "Corp SSO",
    });

    // Edited in place with the secret left empty: it is kept.
    await row.getByRole("button", { name: "Edit" }).click();
    await seen(page.getByRole("heading", { name: 'Edit provider "corp"' }));
    await seen(page.getByText("Set (never shown); empty keeps it."));
    await page.locator("#oauth-corp-label").fill("Corp sign-in");
    await page.getByRole("button", { name: "Save provider" }).click();
    await seen(row.getByText("Corp sign-in (corp)"));
    expect(((await s.api("GET", "/settings/oauth")).providers as Record<string, Record<string, unknown>>).corp).toMatchObject({
      label: "Corp sign-in",
      client_secret_set: true,
    });
    await shot(page, "63-oauth-provider-added");

    // The sign-in page offers the provider, and its button signs a new user in through the real provider.
    const ctx = await s.browser.newContext();
    const p = await ctx.newPage();
    await p.goto(s.product.url);
    await p.getByRole("link", { name: "Sign in with Corp sign-in" }).click();
    await seen(p.getByRole("heading", { name: "Monitoring overview" }), 30_000);
    await seen(p.getByText(op.account.name));
    await ctx.close();

    // Disabled, the sign-in page no longer offers it; deleted after the confirmation, it is gone.
    await row.getByRole("button", { name: "Disable" }).click();
    await seen(row.getByRole("button", { name: "Enable" }));
    expect((await s.product.fetch("/api/v1/auth/oauth/providers").then((r) => r.json())) as unknown).toEqual({ providers: [] });
    page.once("dialog", (d) => void d.accept());
    await row.getByRole("button", { name: "Delete" }).click();
    await seen(page.getByText("No providers: everyone signs in with a password."));
    expect((await s.api("GET", "/settings/oauth")).providers).toEqual({});
  }, 120_000);

  it("uploads a branding logo (a non-image refused first) and previews it", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Branding" }).click();
    await seen(page.getByRole("heading", { name: "Images" }));
    await page
      .getByLabel("Login logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
    const error = await seen(page.locator("#branding-login-logo-error"));
    expect(await error.textContent()).toMatch(/PNG or JPEG/);
    expect((await s.api("GET", "/branding")).login_logo_path).toBeNull();

    const logo = await sharp({ create: { width: 120, height: 40, channels: 3, background: "#2255aa" } })
      .png()
      .toBuffer();
    await page.getByLabel("Login logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
    await seen(page.getByText("The login logo is uploaded."));
    const preview = await seen(page.getByRole("img", { name: "The stored login logo" }));
    await expect.poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBe(120);
    expect((await s.api("GET", "/branding")).login_logo_path).toBe("/branding/login-logo.png");
    const favicon = await sharp({ create: { width: 32, height: 32, channels: 4, background: "#2255aa" } })
      .png()
      .toBuffer();
    await page.getByLabel("Favicon").setInputFiles({ name: "favicon.png", mimeType: "image/png", buffer: favicon });
    await seen(page.getByText("The favicon is uploaded."));
    const icon = await seen(page.getByRole("img", { name: "The stored favicon" }));
    await expect.poll(() => icon.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBe(32);

    // The name and colours: a bad colour refused on its field, then saved.
    await page.getByLabel("Primary colour").fill("orange");
    await page.getByRole("button", { name: "Save name and colours" }).click();
    await seen(page.locator("#branding-primary-error"));
    await page.getByLabel("Primary colour").fill("#2255aa");
    await page.getByLabel("App name").fill("Lab control");
    await page.getByRole("button", { name: "Save name and colours" }).click();
    await seen(page.getByText("The name and colours are saved."));
    expect(await s.api("GET", "/branding/export")).toMatchObject({ app_name: "Lab control", primary_color: "#2255aa" });
    await shot(page, "66-branding");
  }, 60_000);

  it("shows a viewer providers and branding read-only, not the general settings", async () => {
    await s.api("PATCH", "/settings/oauth", {
      providers: { corp: { issuer: op!.issuer, client_id: op!.clientId, client_secret: op!.clientSecret } },
    });
    await s.api("POST", "/admin/users", { email: VIEWER.email, role: "viewer", password: VIEWER.password, must_change_password: false });
    const viewer = await s.browser.newContext({ viewport: { width: 1000, height: 800 } });
    const p = await viewer.newPage();
    await p.goto(`${s.product.url}/settings/general`);
    await p.getByLabel("Email").fill(VIEWER.email);
    await p.getByLabel("Password").fill(VIEWER.password);
    await p.getByRole("button", { name: "Sign in" }).click();
    // The general settings hold URLs and addresses (public_url, the CVE feed sources): administrators' only.
    await seen(p.getByText("Only an administrator sees these settings."));
    expect(await p.getByLabel("Session lifetime (hours)").count()).toBe(0);
    await shot(p, "64-general-settings-viewer");
    await p.getByRole("link", { name: "Sign-in providers" }).click();
    const row = p.locator("tr[data-provider='corp']");
    await seen(row);
    expect(await row.getByRole("button").count()).toBe(0);
    expect(await p.getByRole("heading", { name: "New sign-in provider" }).count()).toBe(0);
    expect(await p.content()).not.toContain(op!.clientSecret);
    await shot(p, "65-oauth-providers-viewer");
    await p.getByRole("link", { name: "Branding" }).click();
    await seen(p.getByRole("img", { name: "The stored login logo" }));
    expect(await p.getByLabel("Login logo").isDisabled()).toBe(true);
    expect(await p.getByLabel("App name").isDisabled()).toBe(true);
    expect(await p.getByRole("button", { name: "Remove" }).count()).toBe(0);
    await shot(p, "67-branding-viewer");
    await viewer.close();
  }, 90_000);
});
