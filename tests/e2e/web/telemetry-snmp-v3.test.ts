// A hardware node's SNMP polling section in a real browser (docs/adr/0489), against the product started as the
// README says and Debian's snmpd with a v3 user on a loopback port: the community shows for v2c and goes with
// v3, whose auth and privacy fields follow the security level; the API's 422 shows on the short auth key;
// saved at authPriv, the keys are only "set" (never sent back) and the sidecar's poll of the node succeeds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeUdpPort, type Snmpd, startSnmpd } from "../../helpers/snmpd.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.172";
const TARGET_HOST = "127.0.0.173";
const ADMIN = { email: "telemetry-v3@example.com", password: "a long passphrase for the telemetry form" };
const AUTH_KEY = "pollauth123";
const PRIV_KEY = "pollpriv123";

describe.skipIf(!hasChromium)("a node's SNMPv3 polling in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  let agent: Snmpd | undefined;
  let port = 0;
  let node = 0;

  beforeAll(async () => {
    port = await freeUdpPort(TARGET_HOST);
    agent = await startSnmpd({
      address: TARGET_HOST,
      port,
      community: "telemetry-v3-ro",
      lines: [`createUser poller SHA-256 "${AUTH_KEY}" AES "${PRIV_KEY}"`, "rouser poller priv"],
    });
  }, 60_000);
  afterAll(() => agent?.stop());

  it("configures a v3 authPriv poll: fields follow the version and level, the 422 shows on its field, the poll succeeds", async () => {
    const { page } = s;
    node = Number((await s.api("POST", "/hardware", { name: "v3-polled-switch" })).id);
    await page.goto(`${s.product.url}/inventory/hardware/${node}`);
    await seen(page.getByRole("heading", { name: "SNMP polling" }));
    await page.getByLabel("Host", { exact: true }).fill(TARGET_HOST);
    await page.getByLabel("Port", { exact: true }).fill(String(port));
    await seen(page.getByLabel("Community", { exact: true }));
    expect(await page.getByLabel("SNMPv3 user name").count()).toBe(0);
    await page.getByLabel("SNMP version").selectOption("v3");
    await seen(page.getByLabel("SNMPv3 user name"));
    expect(await page.getByLabel("Community", { exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Auth key", { exact: true }).count()).toBe(0);
    await page.getByLabel("SNMPv3 user name").fill("poller");
    await page.getByLabel("Security level").selectOption("authPriv");
    await page.getByLabel("Auth protocol").selectOption("SHA-256");
    await page.getByLabel("Auth key", { exact: true }).fill("short");
    await page.getByLabel("Privacy key", { exact: true }).fill(PRIV_KEY);
    await page.getByLabel("Every (seconds)").fill("10");
    await page.getByRole("button", { name: "Save polling" }).click();
    await seen(page.locator("#telemetry-auth-key-error"));
    expect(await page.locator("#telemetry-auth-key-error").textContent()).toMatch(/at least 8 characters/);
    expect((await s.api("GET", `/hardware/${node}/telemetry`)).config).toBeNull();

    await page.getByLabel("Auth key", { exact: true }).fill(AUTH_KEY);
    await page.getByRole("button", { name: "Save polling" }).click();
    await seen(page.getByText("Saved."));
    const config = (await s.api("GET", `/hardware/${node}/telemetry`)).config as Record<string, unknown>;
    expect(config).toMatchObject({
      snmp_version: "v3",
      username: "poller",
      security_level: "authPriv",
      auth_protocol: "SHA-256",
      auth_key_set: true,
      priv_protocol: "AES",
      priv_key_set: true,
      host: TARGET_HOST,
      port,
    });
    expect(JSON.stringify(config)).not.toContain(AUTH_KEY);
    // Stored keys are never sent back: the fields are empty and say so.
    expect(await page.getByLabel("Auth key", { exact: true }).inputValue()).toBe("");
    await seen(page.getByText("Set (never shown); empty keeps it.").first());
    await shot(page, "telemetry-snmp-v3");

    await page.getByRole("button", { name: "Poll now" }).click();
    // The claim stamps last_polled_at; the reading lands once the agent answered.
    const reading = async () =>
      (await s.api("GET", `/hardware/${node}/telemetry`)) as { config: { last_error: string | null }; latest: { status: string } | null };
    await expect.poll(async () => (await reading()).latest?.status ?? null, { timeout: 60_000 }).toBe("up");
    expect((await reading()).config.last_error).toBeNull();
    await page.reload();
    await seen(page.getByText("Last polled"));
  }, 180_000);
});
