// The secrets that used to be stored in clear (SNMP communities, OAuth client secrets) are sealed by the
// vault on write, opened where they are used (the poller's target), never answered; the sidecar's start
// seals rows an older release left in clear, once, and logs counts only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLogger } from "../../../shared/logger.ts";
import { claimPoll, openPollTarget } from "../../../shared/verbs/telemetry/poll-targets.ts";
import { OAUTH_CLIENT_SECRET, openSecret, SNMP_COMMUNITY } from "../../../shared/verbs/vault/secret-columns.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { isCiphertext, Vault } from "../../../shared/vault/vault.ts";
import { encryptStoredSecrets } from "../../../sidecar/startup/vault-secrets.ts";
import { createSnmpPoller } from "../../../sidecar/telemetry/poller.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { newVaultKey, openProcess } from "./support.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a?.t.close());

const vault = () => a.t.runtime.deps.vault;
const node = async (name: string) =>
  (await (await a.req("POST", "hardware", a.admin, { name, ip_address: "127.0.0.1" })).json()).id as number;
const communityOf = async (id: number) =>
  (await a.t.sql`select community from telemetry_configs where hardware_id = ${id}`)[0]!.community as string | null;

describe("writes seal, reads open", () => {
  it("an SNMP community is stored sealed to its row, and the poller's target opens it", async () => {
    const id = await node("sealed-snmp");
    const res = await a.req("POST", `hardware/${id}/telemetry/config`, a.admin, { community: "sealed-community" });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain("sealed-community");
    const stored = (await communityOf(id))!;
    expect(isCiphertext(stored) && Vault.keyIdIn(stored) === vault().keyId).toBe(true);
    expect(await openSecret(vault(), SNMP_COMMUNITY, id, stored)).toBe("sealed-community");
    const ctx = systemContext({ db: a.t.runtime.database.db, clock: { now: () => new Date() }, random: a.t.runtime.deps.random });
    const claimed = await claimPoll({ ctx, input: { hardwareId: id, minGapMs: 0 } });
    expect(claimed!.sealedCommunity).toBe(stored);
    expect((await openPollTarget(vault(), claimed!)).credentials).toBe("sealed-community");
    // Sending the same community again is no change; another one is.
    await a.req("POST", `hardware/${id}/telemetry/config`, a.admin, { community: "sealed-community" });
    await a.req("POST", `hardware/${id}/telemetry/config`, a.admin, { community: "another-community" });
    const diffs = await a.t
      .sql`select diff::text as diff from audit_log where action = 'telemetry.config.update' and entity_id = ${String(id)} order by id`;
    expect(diffs.map((d) => JSON.parse(d.diff).community_changed ?? false)).toEqual([false, true]);
    expect(diffs.map((d) => d.diff).join()).not.toMatch(/sealed-community|another-community|vault:v1/);
  });

  it("an OAuth client secret is stored sealed to its name and answered only as client_secret_set", async () => {
    const res = await a.req("PATCH", "settings/oauth", a.admin, {
      providers: { gitlab: { client_id: "gl", issuer: "https://gitlab.com", client_secret: "gl-client-secret" } },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ providers: { gitlab: { client_secret_set: true } } });
    const [row] = await a.t.sql`select value from server_secrets where name = 'oauth.gitlab.client_secret'`;
    expect(isCiphertext(row!.value)).toBe(true);
    expect(await openSecret(vault(), OAUTH_CLIENT_SECRET, "oauth.gitlab.client_secret", row!.value)).toBe("gl-client-secret");
    // Moved under another name, the ciphertext does not open.
    await expect(openSecret(vault(), OAUTH_CLIENT_SECRET, "oauth.github.client_secret", row!.value)).rejects.toThrow(/does not open/);
  });

  it("a process whose key is not the installation's stores no secret (503) and changes nothing", async () => {
    const id = await node("wrong-key-snmp");
    const wrong = await openProcess(a.t.database.url, { SVC_VAULT_KEY: newVaultKey() });
    try {
      const res = await wrong.req("POST", `hardware/${id}/telemetry/config`, a.admin, { community: "never-stored" });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error_code: "SERVICE_NOT_READY", health: "vault_degraded" });
      expect(await a.t.sql`select 1 from telemetry_configs where hardware_id = ${id}`).toHaveLength(0);
      const oauth = await wrong.req("PATCH", "settings/oauth", a.admin, { providers: { other: { client_secret: "never-stored" } } });
      expect(oauth.status).toBe(503);
      expect(await a.t.sql`select 1 from server_secrets where name = 'oauth.other.client_secret'`).toHaveLength(0);
    } finally {
      await wrong.close();
    }
  });
});

describe("the SNMP poller", () => {
  it("polls with the opened community; one that does not open is the poll's recorded error, and never logged", async () => {
    const good = await node("poll-sealed");
    const bad = await node("poll-unopenable");
    // Nothing listens on port 9 of loopback for SNMP: the good poll gets as far as the network and times out.
    for (const id of [good, bad])
      expect(
        (
          await a.req("POST", `hardware/${id}/telemetry/config`, a.admin, {
            host: "127.0.0.1",
            port: 9,
            community: `community-${id}`,
            options: { timeout_ms: 200, retries: 0 },
          })
        ).status,
      ).toBe(200);
    await a.t
      .sql`update telemetry_configs set community = (select community from telemetry_configs where hardware_id = ${good}) where hardware_id = ${bad}`;
    const lines: string[] = [];
    const poller = createSnmpPoller({
      db: a.t.runtime.database.db,
      clock: { now: () => new Date() },
      logger: jsonLogger("debug", (l) => lines.push(l)),
      vault: vault(),
    });
    expect(await poller.pollNow(good, 0)).toBe("polled");
    expect(await poller.pollNow(bad, 0)).toBe("polled");
    await poller.stop();
    const errors = await a.t
      .sql`select hardware_id, last_error from telemetry_configs where hardware_id in (${good}, ${bad}) order by hardware_id`;
    expect(errors[0]!.last_error).not.toMatch(/decrypt/);
    expect(errors[0]!.last_error).toBeTruthy();
    expect(errors[1]!.last_error).toBe("the SNMP community could not be decrypted with this process's vault key");
    expect(lines.join()).not.toMatch(/community-\d+|vault:v1/);
  });
});

describe("the startup migration of clear secrets", () => {
  it("seals every clear community and OAuth secret once, leaves other server secrets alone, logs and audits counts only", async () => {
    const id1 = await node("legacy-1");
    const id2 = await node("legacy-2");
    await a.t
      .sql`insert into telemetry_configs (hardware_id, host, community) values (${id1}, '127.0.0.1', 'legacy-community-1'), (${id2}, '127.0.0.1', 'legacy-community-2')`;
    await a.t.sql`insert into server_secrets (name, value) values ('oauth.legacy.client_secret', 'legacy-oauth-secret')`;
    const others = await a.t.sql`select name, value from server_secrets where name not like 'oauth.%' order by name`;
    const lines: string[] = [];
    const runtime = { deps: { ...a.t.runtime.deps, logger: jsonLogger("debug", (l) => lines.push(l)) }, database: a.t.runtime.database };

    expect(await encryptStoredSecrets(runtime)).toBe(3);
    for (const [id, plain] of [
      [id1, "legacy-community-1"],
      [id2, "legacy-community-2"],
    ] as const) {
      const stored = (await communityOf(id))!;
      expect(isCiphertext(stored)).toBe(true);
      expect(await openSecret(vault(), SNMP_COMMUNITY, id, stored)).toBe(plain);
    }
    const [oauth] = await a.t.sql`select value from server_secrets where name = 'oauth.legacy.client_secret'`;
    expect(await openSecret(vault(), OAUTH_CLIENT_SECRET, "oauth.legacy.client_secret", oauth!.value)).toBe("legacy-oauth-secret");
    expect(await a.t.sql`select name, value from server_secrets where name not like 'oauth.%' order by name`).toEqual(others);

    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        msg: "encrypted secrets stored in clear with the vault key",
        total: 3,
        "telemetry_configs.community": 2,
        "server_secrets.value (oauth client secrets)": 1,
      }),
    ]);
    expect(lines.join()).not.toMatch(/legacy-/);
    const [audit] = await a.t.sql`select diff::text as diff from audit_log where action = 'vault.secrets_encrypted'`;
    expect(JSON.parse(audit!.diff)).toEqual({
      total: 3,
      encrypted: { "telemetry_configs.community": 2, "server_secrets.value (oauth client secrets)": 1 },
    });

    // Idempotent: a second start finds nothing, writes nothing, logs nothing.
    const before = await a.t.sql`select hardware_id, community from telemetry_configs order by hardware_id`;
    expect(await encryptStoredSecrets(runtime)).toBe(0);
    expect(await a.t.sql`select hardware_id, community from telemetry_configs order by hardware_id`).toEqual(before);
    expect(lines).toHaveLength(1);
  });

  it("a start with a key that is not the installation's leaves clear rows as they are and says so", async () => {
    const id = await node("legacy-wrong");
    await a.t.sql`insert into telemetry_configs (hardware_id, host, community) values (${id}, '127.0.0.1', 'legacy-community-3')`;
    const wrong = await openProcess(a.t.database.url, { SVC_VAULT_KEY: newVaultKey() });
    const lines: string[] = [];
    try {
      expect(
        await encryptStoredSecrets({
          deps: { ...wrong.runtime.deps, logger: jsonLogger("debug", (l) => lines.push(l)) },
          database: wrong.runtime.database,
        }),
      ).toBe(0);
    } finally {
      await wrong.close();
    }
    expect(await communityOf(id)).toBe("legacy-community-3");
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(["secrets stored in clear were left as they are: the vault cannot write now"]);
    // The right key seals it on its next start.
    expect(await encryptStoredSecrets(a.t.runtime)).toBe(1);
    expect(isCiphertext((await communityOf(id))!)).toBe(true);
  });
});
