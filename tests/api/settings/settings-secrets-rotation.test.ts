// The settings sections' secrets (SMTP password, ACME DNS token, OPNsense key pair) are vault values like
// every other: POST /admin/vault/rotate re-encrypts them under the new key, to the values written before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecret, SETTINGS_SECRETS } from "../../../shared/verbs/vault/secret-columns.ts";
import { decodeVaultKey } from "../../../shared/vault/key-config.ts";
import { Vault } from "../../../shared/vault/vault.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { TEST_VAULT_KEY } from "../../helpers/env.ts";
import { newVaultKey, openProcess, type Process } from "../vault/support.ts";

let a: Actors;
let rotated: Process;
const NEW_KEY = newVaultKey();

beforeAll(async () => {
  a = await createActors();
  expect(
    (
      await a.req("PATCH", "settings/smtp", a.admin, {
        smtp_host: "mail.example.test",
        smtp_from_email: "cb@example.test",
        smtp_password: "smtp-pw",
      })
    ).status,
  ).toBe(200);
  expect((await a.req("PATCH", "settings/acme-dns", a.admin, { provider: "cloudflare", api_token: "cf-token" })).status).toBe(200);
  expect(
    (
      await a.req("PATCH", "settings/firewall", a.admin, {
        firewall_url: "https://fw.example.test",
        firewall_api_key: "fw-key",
        firewall_api_secret: "fw-secret",
      })
    ).status,
  ).toBe(200);
  rotated = await openProcess(a.t.database.url, { SVC_VAULT_KEY: NEW_KEY, SVC_VAULT_KEY_PREVIOUS: TEST_VAULT_KEY });
});
afterAll(async () => {
  await rotated?.close();
  await a?.t.close();
});

describe("vault rotation", () => {
  it("re-encrypts the settings secrets under the new key", async () => {
    const res = await rotated.req("POST", "admin/vault/rotate", a.admin);
    expect(res.status).toBe(200);
    const onlyNew = await Vault.open("environment", decodeVaultKey(NEW_KEY, "test"));
    const rows = await a.t.sql<
      { name: string; value: string }[]
    >`select name, value from server_secrets where name like 'settings.%' order by name`;
    expect(rows.map((r) => r.name)).toEqual([
      "settings.acme_dns.api_token",
      "settings.firewall.firewall_api_key",
      "settings.firewall.firewall_api_secret",
      "settings.smtp.smtp_password",
    ]);
    for (const r of rows) expect(Vault.keyIdIn(r.value)).toBe(onlyNew.keyId);
    expect(await Promise.all(rows.map((r) => openSecret(onlyNew, SETTINGS_SECRETS, r.name, r.value)))).toEqual([
      "cf-token",
      "fw-key",
      "fw-secret",
      "smtp-pw",
    ]);
    const [audit] = await a.t.sql`select diff from audit_log where action = 'vault.rotate'`;
    expect((audit!.diff as { columns: Record<string, number> }).columns["server_secrets.value (settings secrets)"]).toBe(4);
  });
});
