// POST /admin/vault/rotate with the key the all-in-one server keeps in DATA_DIR/vault.key: no body, no
// restart. The successor is staged beside the key (vault.key.next, 0600), every secret re-encrypted in one
// transaction, then the file renamed and the process's vault swapped in place. The crash windows are
// replayed by calling the pieces directly: a start after a crash before the commit rolls back, one after
// the commit but before the rename finishes, and either way one key opens every secret.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeVaultKeyFile, settleStagedVaultKey } from "../../../runtime/vault-key-file.ts";
import { nextVaultKeyPath, vaultKeyPath } from "../../../runtime/vault-key.ts";
import { rotateVault } from "../../../shared/verbs/vault/rotate.ts";
import { OAUTH_CLIENT_SECRET, openSecret, SNMP_COMMUNITY } from "../../../shared/verbs/vault/secret-columns.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { decodeVaultKey } from "../../../shared/vault/key-config.ts";
import { keyIdOf, Vault } from "../../../shared/vault/vault.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { TEST_VAULT_KEY } from "../../helpers/env.ts";
import { newVaultKey, openFileKeyProcess, type Process } from "./support.ts";

let a: Actors;
let proc: Process;
const dir = mkdtempSync(join(tmpdir(), "svc-vault-file-"));
let nodeA: number;
let nodeB: number;
const opened: Process[] = [];

const fileKey = () => decodeVaultKey(readFileSync(vaultKeyPath(dir), "utf8"), "vault.key");
const fileKeyId = () => keyIdOf(fileKey());
const secrets = async () => ({
  configs: await a.t.sql<
    { hardware_id: number; community: string }[]
  >`select hardware_id, community from telemetry_configs order by hardware_id`,
  oauth: (
    await a.t.sql<{ name: string; value: string }[]>`select name, value from server_secrets where name = 'oauth.github.client_secret'`
  )[0]!,
  keys: await a.t.sql<{ private_key: string }[]>`select private_key from agent_server_keys`,
  state: (await a.t.sql<{ key_id: string; canary: string }[]>`select key_id, canary from vault_state`)[0]!,
});

/** Every stored secret names `keyId` and opens with that key alone, to the values written at the start. */
async function expectAllUnder(raw: Uint8Array) {
  const only = await Vault.open("file", raw);
  const now = await secrets();
  for (const value of [...now.configs.map((r) => r.community), ...now.keys.map((r) => r.private_key), now.oauth.value, now.state.canary])
    expect(Vault.keyIdIn(value)).toBe(only.keyId);
  expect(now.state.key_id).toBe(only.keyId);
  expect(await Promise.all(now.configs.map((r) => openSecret(only, SNMP_COMMUNITY, r.hardware_id, r.community)))).toEqual([
    "community-a",
    "community-b",
  ]);
  expect(await openSecret(only, OAUTH_CLIENT_SECRET, now.oauth.name, now.oauth.value)).toBe("oauth-secret");
}

/** A start of the server on the same DATA_DIR, as after a crash (the settle step of bin/start.ts included). */
async function restart() {
  const p = await openFileKeyProcess(a.t.database.url, dir);
  opened.push(p);
  return p;
}

beforeAll(async () => {
  a = await createActors();
  // The all-in-one server's key file, holding the key the actors' process was started with.
  writeFileSync(vaultKeyPath(dir), `${TEST_VAULT_KEY}\n`, { mode: 0o600 });
  const node = async (name: string) =>
    (await (await a.req("POST", "hardware", a.admin, { name, ip_address: "192.0.2.30" })).json()).id as number;
  nodeA = await node("file-a");
  nodeB = await node("file-b");
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
  proc = await restart();
  expect(proc.runtime.deps.vault.source).toBe("file");
});
afterAll(async () => {
  for (const p of opened) await p.close();
  await a?.t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("refusals", () => {
  it("a key from SVC_VAULT_KEY keeps its answer: 409, set the new key in the environment", async () => {
    const res = await a.req("POST", "admin/vault/rotate", a.admin);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/set the new key in SVC_VAULT_KEY and the current one in SVC_VAULT_KEY_PREVIOUS/);
  });

  it("a viewer is refused before anything is staged", async () => {
    expect((await proc.req("POST", "admin/vault/rotate", a.viewer)).status).toBe(403);
    expect(existsSync(nextVaultKeyPath(dir))).toBe(false);
  });

  it("a secret that does not open refuses the rotation: 409, vault.key and the process unchanged, the staged key removed", async () => {
    const [saved] = await a.t.sql`select community from telemetry_configs where hardware_id = ${nodeB}`;
    await a.t
      .sql`update telemetry_configs set community = (select community from telemetry_configs where hardware_id = ${nodeA}) where hardware_id = ${nodeB}`;
    try {
      const keyBefore = readFileSync(vaultKeyPath(dir), "utf8");
      const idBefore = proc.runtime.deps.vault.keyId;
      const res = await proc.req("POST", "admin/vault/rotate", a.admin);
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ column: "telemetry_configs.community", reason: "wrong_key" });
      expect(readFileSync(vaultKeyPath(dir), "utf8")).toBe(keyBefore);
      expect(existsSync(nextVaultKeyPath(dir))).toBe(false);
      expect(proc.runtime.deps.vault.keyId).toBe(idBefore);
      expect(proc.runtime.deps.vault.previousKeyIds).toEqual([]);
      expect((await secrets()).state.key_id).toBe(idBefore);
    } finally {
      await a.t.sql`update telemetry_configs set community = ${saved!.community} where hardware_id = ${nodeB}`;
    }
  });

  it("a rotation while another key is staged is 409 and overwrites nothing", async () => {
    const other = `${newVaultKey()}\n`;
    writeFileSync(nextVaultKeyPath(dir), other, { mode: 0o600 });
    try {
      const res = await proc.req("POST", "admin/vault/rotate", a.admin);
      expect(res.status).toBe(409);
      expect((await res.json()).detail).toMatch(/already in progress/);
      expect(readFileSync(nextVaultKeyPath(dir), "utf8")).toBe(other);
    } finally {
      rmSync(nextVaultKeyPath(dir));
    }
  });
});

describe("the rotation in place", () => {
  it("generates the successor, re-encrypts every secret, swaps vault.key (0600) and the process's vault", async () => {
    const oldId = await fileKeyId();
    const res = await proc.req("POST", "admin/vault/rotate", a.admin);
    expect(res.status, await res.clone().text()).toBe(200);
    const status = await res.json();
    const newId = await fileKeyId();
    expect(newId).not.toBe(oldId);
    expect(status).toMatchObject({ status: "healthy", key_source: "file", rotation_pending: false, encrypted_secrets: 4, key_id: newId });
    expect(statSync(vaultKeyPath(dir)).mode & 0o777).toBe(0o600);
    expect(existsSync(nextVaultKeyPath(dir))).toBe(false);
    await expectAllUnder(fileKey());
    // Hot-swapped: this process writes under the new key without a restart.
    expect(proc.runtime.deps.vault.keyId).toBe(newId);
    expect((await proc.req("POST", `hardware/${nodeA}/telemetry/config`, a.admin, { community: "community-a" })).status).toBe(200);
    expect(await (await proc.req("GET", "health/vault", a.admin)).json()).toMatchObject({ status: "healthy", key_id: newId });
    const [audit] = await a.t.sql`select diff from audit_log where action = 'vault.rotate'`;
    expect(audit!.diff).toMatchObject({ from_key_id: oldId, to_key_id: newId, re_encrypted: 4 });
    // A process still on the old key (what a split deployment's other processes would be) is degraded.
    expect(await (await a.req("GET", "health/vault", a.admin)).json()).toMatchObject({ status: "degraded" });
  });
});

describe("a crash in the middle, settled by the next start", () => {
  it("after the staging, before the commit: the start removes the staged key and keeps vault.key", async () => {
    const keyBefore = readFileSync(vaultKeyPath(dir), "utf8");
    const staged = await nodeVaultKeyFile(dir).stage();
    // Written beside the key, the owner's only, before anything is re-encrypted.
    expect(statSync(nextVaultKeyPath(dir)).mode & 0o777).toBe(0o600);
    const stagedId = await keyIdOf(staged.key);
    const p = await restart();
    expect(p.runtime.deps.vault.previousKeyIds).toContain(stagedId);
    expect(await settleStagedVaultKey(p.runtime)).toBe("rolled_back");
    expect(existsSync(nextVaultKeyPath(dir))).toBe(false);
    expect(readFileSync(vaultKeyPath(dir), "utf8")).toBe(keyBefore);
    expect(p.runtime.deps.vault.previousKeyIds).toEqual([]);
    expect(p.runtime.deps.vault.keyId).toBe(await fileKeyId());
    expect(await (await p.req("GET", "health/vault", a.admin)).json()).toMatchObject({ status: "healthy" });
    await expectAllUnder(fileKey());
  });

  it("after the commit, before the rename: the start renames the staged key over vault.key", async () => {
    const crashing = await restart();
    const real = nodeVaultKeyFile(dir);
    let stagedKey: Uint8Array | undefined;
    const keyFile = {
      async stage() {
        const s = await real.stage();
        stagedKey = s.key;
        return { key: s.key, discard: s.discard, commit: () => Promise.reject(new Error("crashed before the rename")) };
      },
    };
    const { db } = crashing.runtime.database;
    const { clock, random } = crashing.runtime.deps;
    await expect(
      rotateVault({ ctx: systemContext({ db, clock, random, vault: crashing.runtime.deps.vault }), input: { keyFile } }),
    ).rejects.toThrow("crashed before the rename");
    // The secrets are under the staged key; vault.key still holds the old one.
    await expectAllUnder(stagedKey!);
    expect(existsSync(nextVaultKeyPath(dir))).toBe(true);
    expect(await fileKeyId()).not.toBe(await keyIdOf(stagedKey!));

    const p = await restart();
    // Before the settle the staged key already opens them (decrypt-only): the rotation shows as pending.
    expect(await (await p.req("GET", "health/vault", a.admin)).json()).toMatchObject({ status: "degraded", rotation_pending: true });
    expect(await settleStagedVaultKey(p.runtime)).toBe("finished");
    expect(existsSync(nextVaultKeyPath(dir))).toBe(false);
    expect(await fileKeyId()).toBe(await keyIdOf(stagedKey!));
    expect(statSync(vaultKeyPath(dir)).mode & 0o777).toBe(0o600);
    expect(p.runtime.deps.vault.keyId).toBe(await keyIdOf(stagedKey!));
    expect(await (await p.req("GET", "health/vault", a.admin)).json()).toMatchObject({ status: "healthy" });
    expect((await p.req("POST", `hardware/${nodeB}/telemetry/config`, a.admin, { community: "community-b" })).status).toBe(200);
    await expectAllUnder(fileKey());
  });

  it("a staged key that was never completely written is removed", async () => {
    writeFileSync(nextVaultKeyPath(dir), "trunc", { mode: 0o600 });
    const p = await restart();
    expect(await settleStagedVaultKey(p.runtime)).toBe("rolled_back");
    expect(existsSync(nextVaultKeyPath(dir))).toBe(false);
    expect(await (await p.req("GET", "health/vault", a.admin)).json()).toMatchObject({ status: "healthy" });
  });

  it("no staged key: nothing to settle", async () => {
    expect(await settleStagedVaultKey(proc.runtime)).toBe("none");
  });
});
