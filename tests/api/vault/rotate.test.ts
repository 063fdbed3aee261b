// POST /admin/vault/rotate: after a restart with a new key (old one in SVC_VAULT_KEY_PREVIOUS), every stored
// secret (SNMP community, OAuth client secret, the agents' server key) is re-encrypted under the new key in
// one transaction; a key that opens nothing, or a value that fails its tag, changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkServerKeys } from "../../../shared/verbs/agents/server-key.ts";
import { OAUTH_CLIENT_SECRET, openSecret, SNMP_COMMUNITY } from "../../../shared/verbs/vault/secret-columns.ts";
import { Vault } from "../../../shared/vault/vault.ts";
import { decodeVaultKey } from "../../../shared/vault/key-config.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { TEST_VAULT_KEY } from "../../helpers/env.ts";
import { newVaultKey, openProcess, type Process } from "./support.ts";

let a: Actors;
let rotated: Process;
const NEW_KEY = newVaultKey();
let nodeA: number;
let nodeB: number;
let serverSecretHex: string;

/** Every row that holds a secret, and the vault's state: what "nothing changed" compares. */
const snapshot = async () => ({
  configs: await a.t.sql`select hardware_id, community from telemetry_configs order by hardware_id`,
  secrets: await a.t.sql`select name, value from server_secrets order by name`,
  keys: await a.t.sql`select id, public_key, private_key from agent_server_keys order by id`,
  state: await a.t.sql`select key_id, canary, last_rotation_at from vault_state`,
});

beforeAll(async () => {
  a = await createActors();
  const node = async (name: string) =>
    (await (await a.req("POST", "hardware", a.admin, { name, ip_address: "192.0.2.20" })).json()).id as number;
  nodeA = await node("rot-a");
  nodeB = await node("rot-b");
  expect((await a.req("POST", `hardware/${nodeA}/telemetry/config`, a.admin, { community: "community-a" })).status).toBe(200);
  expect((await a.req("POST", `hardware/${nodeB}/telemetry/config`, a.admin, { community: "community-b" })).status).toBe(200);
  expect(
    (
      await a.req("PATCH", "settings/oauth", a.admin, {
        providers: { github: { client_id: "id", issuer: "https://github.com", client_secret: "oauth-secret" } },
      })
    ).status,
  ).toBe(200);
  expect((await a.req("GET", "agents/server-key/status", a.admin)).status).toBe(200);
  const [key] = await linkServerKeys(a.t.runtime.database.db, a.t.runtime.deps.vault, new Date());
  serverSecretHex = Buffer.from(key!.secretKey).toString("hex");
  rotated = await openProcess(a.t.database.url, { SVC_VAULT_KEY: NEW_KEY, SVC_VAULT_KEY_PREVIOUS: TEST_VAULT_KEY });
});
afterAll(async () => {
  await rotated?.close();
  await a?.t.close();
});

describe("before the rotation", () => {
  it("the restarted process reports the rotation pending (degraded), still reads, and writes no secret", async () => {
    expect(await (await rotated.req("GET", "health/vault", a.admin)).json()).toMatchObject({
      status: "degraded",
      rotation_pending: true,
      encrypted_secrets: 4,
      key_id: rotated.runtime.deps.vault.keyId,
    });
    const test = await (await rotated.req("POST", "admin/vault/test", a.admin)).json();
    expect(test).toMatchObject({ ok: true, message: expect.stringMatching(/rotation is pending/) });
    const [key] = await linkServerKeys(rotated.runtime.database.db, rotated.runtime.deps.vault, new Date());
    expect(Buffer.from(key!.secretKey).toString("hex")).toBe(serverSecretHex);
    const before = await snapshot();
    const write = await rotated.req("POST", `hardware/${nodeA}/telemetry/config`, a.admin, { community: "written-too-early" });
    expect(write.status).toBe(503);
    expect(await write.json()).toMatchObject({ error_code: "SERVICE_NOT_READY", health: "vault_rotation_pending" });
    // A change that carries no secret goes on.
    expect((await rotated.req("POST", `hardware/${nodeA}/telemetry/config`, a.admin, { interval_s: 120 })).status).toBe(200);
    const after = await snapshot();
    expect(after.configs).toEqual(before.configs);
  });

  it("a process whose keys open nothing refuses the rotation with 503 and changes nothing", async () => {
    const stranger = await openProcess(a.t.database.url, { SVC_VAULT_KEY: newVaultKey(), SVC_VAULT_KEY_PREVIOUS: newVaultKey() });
    try {
      expect(await (await stranger.req("GET", "health/vault", a.admin)).json()).toMatchObject({
        status: "degraded",
        rotation_pending: false,
      });
      const before = await snapshot();
      const res = await stranger.req("POST", "admin/vault/rotate", a.admin);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        error_code: "SERVICE_NOT_READY",
        health: "vault_degraded",
        detail: expect.stringMatching(/nothing was changed/),
      });
      expect(await snapshot()).toEqual(before);
    } finally {
      await stranger.close();
    }
  });

  it("a stored value that fails its authentication tag refuses the whole rotation: 409, nothing changed", async () => {
    const [saved] = await a.t.sql`select community from telemetry_configs where hardware_id = ${nodeB}`;
    // node A's ciphertext in node B's row: sealed for another row, so its tag fails here.
    await a.t
      .sql`update telemetry_configs set community = (select community from telemetry_configs where hardware_id = ${nodeA}) where hardware_id = ${nodeB}`;
    try {
      const before = await snapshot();
      const res = await rotated.req("POST", "admin/vault/rotate", a.admin);
      expect(res.status).toBe(409);
      const body = await res.json();
      expect(body).toMatchObject({ column: "telemetry_configs.community", reason: "wrong_key" });
      expect(body.detail).toBe(
        `The stored secret telemetry_configs.community of row ${nodeB} fails its authentication tag; nothing was re-encrypted and nothing changed.`,
      );
      expect(await snapshot()).toEqual(before);
      expect(await a.t.sql`select 1 from audit_log where action = 'vault.rotate'`).toHaveLength(0);
    } finally {
      await a.t.sql`update telemetry_configs set community = ${saved!.community} where hardware_id = ${nodeB}`;
    }
  });
});

describe("the rotation", () => {
  it("re-encrypts every secret under the new key, moves the canary, and is audited", async () => {
    const res = await rotated.req("POST", "admin/vault/rotate", a.admin);
    expect(res.status).toBe(200);
    const status = await res.json();
    expect(status).toMatchObject({
      status: "healthy",
      rotation_pending: false,
      encrypted_secrets: 4,
      key_id: rotated.runtime.deps.vault.keyId,
    });
    expect(Date.parse(status.last_rotation)).toBeGreaterThan(Date.now() - 60_000);

    // Only the new key, no previous one: everything opens, to the values written before.
    const onlyNew = await Vault.open("environment", decodeVaultKey(NEW_KEY, "test"));
    const newId = onlyNew.keyId;
    const now = await snapshot();
    for (const value of [...now.configs.map((r) => r.community), ...now.keys.map((r) => r.private_key), now.state[0]!.canary])
      expect(Vault.keyIdIn(value)).toBe(newId);
    expect(now.state[0]!.key_id).toBe(newId);
    const communities = await Promise.all(now.configs.map((r) => openSecret(onlyNew, SNMP_COMMUNITY, r.hardware_id, r.community)));
    expect(communities).toEqual(["community-a", "community-b"]);
    const oauth = now.secrets.find((r) => r.name === "oauth.github.client_secret")!;
    expect(Vault.keyIdIn(oauth.value)).toBe(newId);
    expect(await openSecret(onlyNew, OAUTH_CLIENT_SECRET, oauth.name, oauth.value)).toBe("oauth-secret");
    const [key] = await linkServerKeys(a.t.runtime.database.db, onlyNew, new Date());
    expect(Buffer.from(key!.secretKey).toString("hex")).toBe(serverSecretHex);

    const [audit] = await a.t.sql`select level, entity_id, diff::text as diff from audit_log where action = 'vault.rotate'`;
    expect(JSON.parse(audit!.diff)).toEqual({
      from_key_id: a.t.runtime.deps.vault.keyId,
      to_key_id: newId,
      re_encrypted: 4,
      columns: { "telemetry_configs.community": 2, "server_secrets.value (oauth client secrets)": 1, "agent_server_keys.private_key": 1 },
    });
    expect(audit!.diff).not.toMatch(/community-a|oauth-secret/);
  });

  it("afterwards the new key writes, the old process is degraded and refused, and a second rotate is 409", async () => {
    expect((await rotated.req("POST", `hardware/${nodeA}/telemetry/config`, a.admin, { community: "after-rotation" })).status).toBe(200);
    expect(await (await a.req("GET", "health/vault", a.admin)).json()).toMatchObject({ status: "degraded", rotation_pending: false });
    const old = await a.req("POST", `hardware/${nodeB}/telemetry/config`, a.admin, { community: "old-key" });
    expect(old.status).toBe(503);
    expect((await rotated.req("POST", "admin/vault/rotate", a.admin)).status).toBe(409);
  });
});
