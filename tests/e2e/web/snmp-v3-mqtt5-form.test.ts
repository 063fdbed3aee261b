// The monitor form's SNMPv3 fields in a real browser, against the product started as the README says and
// Debian's snmpd (tests/helpers/snmpd.ts) with a v3 user on a loopback port:
// - an snmp monitor shows the community and no v3 field until version v3 is chosen; then the user name
//   and security level show, the auth fields with authNoPriv or authPriv, the privacy fields with authPriv
//   only, and the community goes;
// - the API's 422 shows on the auth key field (shorter than 8 characters) and on the missing privacy key;
// - created with the keys, it is up after "Check now"; the keys are never sent back: the form's password
//   fields hold the mask, and saving the edit unchanged keeps the stored keys (still up);
// - an mqtt monitor's protocol version 5 (MQTT 5) chosen in the form is stored as the number 5.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeUdpPort, type Snmpd, startSnmpd } from "../../helpers/snmpd.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.163";
const TARGET_HOST = "127.0.0.164";
const ADMIN = { email: "snmp-v3-form@example.com", password: "a long passphrase for the snmp v3 form" };
const AUTH_KEY = "authpass123";
const PRIV_KEY = "privpass123";

describe.skipIf(!hasChromium)("the monitor form's SNMPv3 and MQTT 5 fields in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  let agent: Snmpd | undefined;
  let port = 0;
  let monitorId = 0;

  beforeAll(async () => {
    port = await freeUdpPort(TARGET_HOST);
    agent = await startSnmpd({
      address: TARGET_HOST,
      port,
      community: "v3-form-ro",
      lines: ["sysName v3-form-target", `createUser bench SHA-256 "${AUTH_KEY}" AES "${PRIV_KEY}"`, "rouser bench priv"],
    });
  }, 60_000);
  afterAll(() => agent?.stop());

  it("shows the v3 fields only with version v3, and the keys as the security level needs them", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/new`);
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("switch v3");
    await page.getByLabel("Check type").selectOption("snmp");
    await page.getByLabel("Host", { exact: true }).fill(TARGET_HOST);
    const community = page.getByLabel("Community");
    const user = page.getByLabel("SNMPv3 user name");
    const level = page.getByLabel("Security level");
    const authProtocol = page.getByLabel("Auth protocol");
    const authKey = page.getByLabel("Auth key");
    const privProtocol = page.getByLabel("Privacy protocol");
    const privKey = page.getByLabel("Privacy key");
    const count = async () => ({
      community: await community.count(),
      user: await user.count(),
      level: await level.count(),
      authProtocol: await authProtocol.count(),
      authKey: await authKey.count(),
      privProtocol: await privProtocol.count(),
      privKey: await privKey.count(),
    });
    await seen(community);
    expect(await count()).toEqual({ community: 1, user: 0, level: 0, authProtocol: 0, authKey: 0, privProtocol: 0, privKey: 0 });

    await page.getByLabel("SNMP version").selectOption("v3");
    await seen(user);
    expect(await count()).toEqual({ community: 0, user: 1, level: 1, authProtocol: 0, authKey: 0, privProtocol: 0, privKey: 0 });
    await level.selectOption("authNoPriv");
    await seen(authKey);
    expect(await count()).toEqual({ community: 0, user: 1, level: 1, authProtocol: 1, authKey: 1, privProtocol: 0, privKey: 0 });
    await level.selectOption("authPriv");
    await seen(privKey);
    expect(await count()).toEqual({ community: 0, user: 1, level: 1, authProtocol: 1, authKey: 1, privProtocol: 1, privKey: 1 });
    // The keys are secrets: password inputs.
    expect(await authKey.getAttribute("type")).toBe("password");
    expect(await privKey.getAttribute("type")).toBe("password");
    await shot(page, "snmp-v3-form-fields");
  }, 120_000);

  it("shows the API's 422 on the auth key and on the missing privacy key, then creates the monitor, up after Check now", async () => {
    const { page } = s;
    await page.getByLabel("OID").fill("1.3.6.1.2.1.1.5.0");
    await page.getByLabel("Port").fill(String(port));
    await page.getByLabel("SNMPv3 user name").fill("bench");
    await page.getByLabel("Auth protocol").selectOption("SHA-256");
    const authKey = page.getByLabel("Auth key");
    await authKey.fill("short");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.locator("#config-auth_key-error").getByText(/at least 8 characters/));
    expect(await authKey.getAttribute("aria-invalid")).toBe("true");

    await authKey.fill(AUTH_KEY);
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.locator("#config-priv_key-error").getByText("Required for security level authPriv."));
    await shot(page, "snmp-v3-form-priv-key-required");

    await page.getByLabel("Privacy key").fill(PRIV_KEY);
    await page.getByLabel("Check every (seconds)").fill("3600");
    await page.getByRole("button", { name: "Create monitor" }).click();
    const heading = page.getByRole("heading", { name: /switch v3/, level: 1 });
    await seen(heading);
    monitorId = Number(/\/monitors\/(\d+)$/.exec(page.url())![1]);
    const saved = await s.api("GET", `/monitors/${monitorId}`);
    expect(saved.config).toEqual({
      oid: "1.3.6.1.2.1.1.5.0",
      port,
      version: "v3",
      username: "bench",
      security_level: "authPriv",
      auth_protocol: "SHA-256",
      auth_key: "********",
      auth_key_set: true,
      priv_key: "********",
      priv_key_set: true,
    });
    await page.getByRole("button", { name: "Check now" }).click();
    await seen(heading.locator(".status-good"), 30_000);
    expect((await s.api("GET", `/monitors/${monitorId}`)).last_msg).toBe('1.3.6.1.2.1.1.5.0 = OctetString: "v3-form-target"');
  }, 120_000);

  it("never shows the stored keys: the edit holds the mask, and saving it unchanged keeps them", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/${monitorId}/edit`);
    const authKey = page.getByLabel("Auth key");
    await seen(authKey);
    expect(await authKey.inputValue()).toBe("********");
    expect(await page.getByLabel("Privacy key").inputValue()).toBe("********");
    expect(await page.content()).not.toContain(PRIV_KEY);
    await page.getByLabel("Check every (seconds)").fill("1800");
    await page.getByRole("button", { name: "Save changes" }).click();
    const heading = page.getByRole("heading", { name: /switch v3/, level: 1 });
    await seen(heading);
    expect(await s.api("GET", `/monitors/${monitorId}`)).toMatchObject({
      interval_secs: 1800,
      config: { auth_key: "********", priv_key: "********", username: "bench" },
    });
    // The sealed keys still log in: a new check after the save is up.
    const before = (await s.api("GET", `/monitors/${monitorId}`)).last_polled_at;
    await page.getByRole("button", { name: "Check now" }).click();
    await expect.poll(async () => (await s.api("GET", `/monitors/${monitorId}`)).last_polled_at, { timeout: 30_000 }).not.toBe(before);
    expect(await s.api("GET", `/monitors/${monitorId}`)).toMatchObject({
      status: "up",
      last_msg: '1.3.6.1.2.1.1.5.0 = OctetString: "v3-form-target"',
    });
  }, 120_000);

  it("stores an mqtt monitor's protocol version 5 chosen in the form as a number", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/new`);
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("broker v5");
    await page.getByLabel("Check type").selectOption("mqtt");
    await page.getByLabel("Host", { exact: true }).fill(TARGET_HOST);
    const version = page.getByLabel("MQTT protocol version");
    expect(await version.inputValue()).toBe("");
    await version.selectOption("5");
    await page.getByLabel("Check every (seconds)").fill("3600");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.getByRole("heading", { name: /broker v5/, level: 1 }));
    const id = Number(/\/monitors\/(\d+)$/.exec(page.url())![1]);
    expect((await s.api("GET", `/monitors/${id}`)).config).toEqual({ protocol_version: 5 });
    await page.goto(`${s.product.url}/monitors/${id}/edit`);
    expect(await (await seen(page.getByLabel("MQTT protocol version"))).inputValue()).toBe("5");
  }, 120_000);
});
