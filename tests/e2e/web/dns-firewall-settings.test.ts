// The ACME DNS credentials and the firewall (OPNsense) settings screens in a real browser against the
// product started as the README says (127.0.0.250): RFC 2136 saved after the API's 422, the Cloudflare
// token, the firewall pointed at the fake OPNsense (127.0.0.251, replaying recorded answers) and checked,
// and a viewer who is shown neither (administrators' settings). Secrets are shown as set, never echoed.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_OPNSENSE_KEY, FAKE_OPNSENSE_SECRET, type FakeOpnsense, startFakeOpnsense } from "../../helpers/fake-opnsense.ts";
import { killAll, tempDataDir } from "../helpers.ts";
import { ARTIFACTS, hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.250";
const FIREWALL_HOST = "127.0.0.251";
const ADMIN = { email: "dns-admin@example.com", password: "a long passphrase for dns and firewall" };
const VIEWER = { email: "dns-viewer@example.com", password: "viewer passphrase 12345" };
const TSIG_SECRET = "c2VjcmV0LXRzaWcta2V5LWZvci1hY21lLXRlc3Rz";
const CLOUDFLARE_TOKEN = "cf-token-in-the-browser-0123456789abcdef";

describe.skipIf(!hasChromium)("web UI ACME DNS credentials and firewall (OPNsense) settings", () => {
  const data = tempDataDir();
  let s: SignedIn;
  let fw: FakeOpnsense;

  beforeAll(async () => {
    fw = await startFakeOpnsense(FIREWALL_HOST);
    s = await signedIn(HOST, data.dir, ADMIN);
    // The fake firewall is on loopback, which the outbound policy refuses by default.
    await s.api("PUT", "/settings", {
      rate_limit_profile: "relaxed",
      outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false },
    });
  }, 300_000);

  afterAll(async () => {
    if (s) writeFileSync(join(ARTIFACTS, "dns-firewall-settings-product.log"), s.product.output());
    await fw?.close();
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  const acme = async () => (await s.api("GET", "/settings")).acme_dns as Record<string, unknown>;

  it("saves RFC 2136 credentials after the API's 422; the TSIG secret is shown as set, never echoed", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "ACME DNS" }).click();
    await seen(page.getByRole("heading", { name: "ACME DNS credentials" }));
    await page.getByLabel("DNS provider").selectOption("rfc2136");
    await page.locator("#acme-dns-server").fill("ns1.example.test");
    await page.locator("#acme-dns-port").fill("5353");
    await page.locator("#acme-dns-tsig-name").fill("acme-update.");
    await page.getByLabel("TSIG algorithm").selectOption("hmac-sha512");
    await page.locator("#acme-dns-tsig-secret").fill("not base64 at all!");
    await page.getByRole("button", { name: "Save DNS credentials" }).click();
    const error = await seen(page.locator("#acme-dns-tsig-secret-error"));
    expect(await error.textContent()).toContain("Must be base64.");
    expect(await page.locator("#acme-dns-tsig-secret").getAttribute("aria-invalid")).toBe("true");
    expect(await acme()).toEqual({ provider: null });
    await shot(page, "70-acme-dns-422");

    await page.locator("#acme-dns-tsig-secret").fill(TSIG_SECRET);
    await page.getByRole("button", { name: "Save DNS credentials" }).click();
    await seen(page.getByText("The ACME DNS credentials are saved."));
    await seen(page.locator("#acme-dns-tsig-secret-hint").getByText("Set (never shown); empty keeps it."));
    expect(await page.locator("#acme-dns-tsig-secret").inputValue()).toBe("");
    expect(await acme()).toEqual({
      provider: "rfc2136",
      server: "ns1.example.test",
      port: 5353,
      tsig_name: "acme-update.",
      tsig_algorithm: "hmac-sha512",
      tsig_secret_set: true,
    });
    expect(JSON.stringify(await s.api("GET", "/settings"))).not.toContain(TSIG_SECRET);
    expect(await page.content()).not.toContain(TSIG_SECRET);

    // Saved again with the secret left empty: the stored one is kept.
    await page.locator("#acme-dns-port").fill("53");
    await page.getByRole("button", { name: "Save DNS credentials" }).click();
    await expect.poll(async () => (await acme()).port, { timeout: 15_000, interval: 300 }).toBe(53);
    expect((await acme()).tsig_secret_set).toBe(true);
    await shot(page, "71-acme-dns-rfc2136-saved");
  }, 60_000);

  it("switches to Cloudflare and saves its token, write-only", async () => {
    const { page } = s;
    await page.getByLabel("DNS provider").selectOption("cloudflare");
    await seen(page.getByText("Saving replaces the stored rfc2136 credentials."));
    await seen(page.locator("#acme-dns-api-token-hint").getByText("Not set."));
    await page.locator("#acme-dns-api-token").fill(CLOUDFLARE_TOKEN);
    await page.getByRole("button", { name: "Save DNS credentials" }).click();
    await seen(page.locator("#acme-dns-api-token-hint").getByText("Set (never shown); empty keeps it."));
    expect(await acme()).toEqual({ provider: "cloudflare", api_token_set: true });
    expect(JSON.stringify(await s.api("GET", "/settings"))).not.toContain(CLOUDFLARE_TOKEN);
    expect(await page.content()).not.toContain(CLOUDFLARE_TOKEN);
    await shot(page, "72-acme-dns-cloudflare");
  }, 60_000);

  it("points the firewall settings at the fake OPNsense and checks it: version, ARP and lease counts", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Firewall (OPNsense)" }).click();
    await seen(page.getByRole("heading", { name: "Firewall (OPNsense)" }));
    await seen(page.locator("#firewall-api-secret-hint").getByText("Not set."));
    await page.getByRole("button", { name: "Check the firewall" }).click();
    await seen(page.getByText("The firewall check failed: OPNsense host is not configured"));

    await page.getByLabel("API URL").fill("ftp://firewall.example.test");
    await page.getByRole("button", { name: "Save firewall settings" }).click();
    expect(await (await seen(page.locator("#firewall-url-error"))).textContent()).toContain("http(s) URL");
    expect((await s.api("GET", "/settings")).firewall_url).toBeNull();

    await page.getByLabel("API URL").fill(fw.url);
    await page.getByLabel("Verify the firewall's certificate").uncheck();
    await page.locator("#firewall-api-key").fill(FAKE_OPNSENSE_KEY);
    await page.locator("#firewall-api-secret").fill(FAKE_OPNSENSE_SECRET);
    await page.getByRole("button", { name: "Save firewall settings" }).click();
    await seen(page.getByText("The firewall settings are saved."));
    await seen(page.locator("#firewall-api-key-hint").getByText("Set (never shown); empty keeps it."));
    await seen(page.locator("#firewall-api-secret-hint").getByText("Set (never shown); empty keeps it."));
    const settings = await s.api("GET", "/settings");
    expect(settings).toMatchObject({
      firewall_url: fw.url,
      firewall_verify_tls: false,
      firewall_api_key_set: true,
      firewall_api_secret_set: true,
    });
    expect(JSON.stringify(settings)).not.toContain(FAKE_OPNSENSE_SECRET);
    expect(await page.content()).not.toContain(FAKE_OPNSENSE_SECRET);
    expect(await page.content()).not.toContain(FAKE_OPNSENSE_KEY);

    await page.getByRole("button", { name: "Check the firewall" }).click();
    await seen(page.getByText("OPNsense 24.7.9: 4 ARP entries, 3 DHCP leases."), 30_000);
    expect(fw.requests.map((r) => r.path)).toEqual([
      "/api/core/firmware/status",
      "/api/diagnostics/interface/getArp",
      "/api/dhcpv4/leases/searchLease",
    ]);
    await shot(page, "73-firewall-checked");
  }, 60_000);

  it("keeps both sections from a viewer (GET /settings answers them rate_limit_profile only)", async () => {
    await s.api("POST", "/admin/users", { ...VIEWER, role: "viewer", must_change_password: false });
    const viewer = await s.browser.newContext({ viewport: { width: 1000, height: 800 } });
    try {
      const p = await viewer.newPage();
      await p.goto(`${s.product.url}/settings/acme-dns`);
      await p.getByLabel("Email").fill(VIEWER.email);
      await p.getByLabel("Password").fill(VIEWER.password);
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.getByText("Only an administrator sees these settings."));
      expect(await p.getByLabel("DNS provider").count()).toBe(0);
      await shot(p, "74-acme-dns-viewer");

      await p.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Firewall (OPNsense)" }).click();
      await seen(p.getByText("Only an administrator sees these settings."));
      expect(await p.getByLabel("API URL").count()).toBe(0);
      expect(await p.content()).not.toContain(fw.url);
      expect(await p.content()).not.toContain(FAKE_OPNSENSE_SECRET);
      await shot(p, "75-firewall-viewer");
    } finally {
      await viewer.close();
    }
  }, 60_000);
});
