// GET /health/vault and POST /admin/vault/{initialize,test,rotate}: shapes, access, and the answers of a
// process with no key (ephemeral).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Vault } from "../../../shared/vault/vault.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a?.t.close());

const keyId = () => a.t.runtime.deps.vault.keyId;

describe("vault routes: happy", () => {
  it("a fresh installation: healthy, key from the environment, nothing stored, not yet initialized", async () => {
    const res = await a.req("GET", "health/vault", a.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "healthy",
      key_source: "environment",
      encrypted_secrets: 0,
      last_rotation: null,
      initialized: false,
      rotation_pending: false,
      key_id: keyId(),
    });
  });

  it("test answers 200 {ok, message}", async () => {
    const res = await a.req("POST", "admin/vault/test", a.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: "Vault encryption/decryption verified." });
  });

  it("initialize records the key once (audited); again is 409", async () => {
    const res = await a.req("POST", "admin/vault/initialize", a.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "healthy", initialized: true, key_id: keyId() });
    const [state] = await a.t.sql`select key_id from vault_state`;
    expect(state!.key_id).toBe(keyId());
    const [audit] = await a.t.sql`select diff::text as diff from audit_log where action = 'vault.initialize'`;
    expect(JSON.parse(audit!.diff)).toEqual({ key_id: keyId(), key_source: "environment" });
    const again = await a.req("POST", "admin/vault/initialize", a.admin);
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toBe("Vault is already initialized.");
  });

  it("rotate with no new key loaded is 409 and says how to rotate", async () => {
    const res = await a.req("POST", "admin/vault/rotate", a.admin);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/No rotation is pending.*SVC_VAULT_KEY_PREVIOUS/);
  });

  it("the raw key is in no answer", async () => {
    const raw = a.t.runtime.deps.config.SVC_VAULT_KEY!;
    for (const [method, path] of [
      ["GET", "health/vault"],
      ["POST", "admin/vault/test"],
      ["POST", "admin/vault/rotate"],
      ["POST", "admin/vault/initialize"],
    ] as const)
      expect(await (await a.req(method, path, a.admin)).text()).not.toContain(raw);
  });
});

describe("vault routes: errors and security", () => {
  it("administrators only: 401 without a credential, 403 for editors and viewers", async () => {
    for (const [method, path] of [
      ["GET", "health/vault"],
      ["POST", "admin/vault/test"],
      ["POST", "admin/vault/rotate"],
      ["POST", "admin/vault/initialize"],
    ] as const) {
      expect((await a.req(method, path)).status, `${method} ${path}`).toBe(401);
      for (const token of [a.editor, a.viewer]) expect((await a.req(method, path, token)).status, `${method} ${path}`).toBe(403);
    }
  });

  it("initialize refuses a new key while ciphertexts exist without a recorded key", async () => {
    const hw = await (await a.req("POST", "hardware", a.admin, { name: "vault-init-node", ip_address: "192.0.2.7" })).json();
    expect((await a.req("POST", `hardware/${hw.id}/telemetry/config`, a.admin, { community: "init-community" })).status).toBe(200);
    const [saved] = await a.t.sql`select * from vault_state`;
    await a.t.sql`delete from vault_state`;
    try {
      const res = await a.req("POST", "admin/vault/initialize", a.admin);
      expect(res.status).toBe(409);
      expect((await res.json()).detail).toMatch(/^Cannot initialize a new vault key while encrypted secrets already exist \(1\)/);
      expect(await a.t.sql`select * from vault_state`).toHaveLength(0);
    } finally {
      await a.t.sql`insert into vault_state ${a.t.sql(saved!)}`;
    }
    expect(await (await a.req("GET", "health/vault", a.admin)).json()).toMatchObject({ status: "healthy", encrypted_secrets: 1 });
  });

  it("a process with no key: ephemeral; test ok=false; initialize and rotate 503; nothing written", async () => {
    const deps = a.t.runtime.deps;
    const loaded = deps.vault;
    deps.vault = await Vault.open("none", undefined);
    try {
      expect(await (await a.req("GET", "health/vault", a.admin)).json()).toMatchObject({
        status: "ephemeral",
        key_source: "none",
        key_id: null,
      });
      const test = await a.req("POST", "admin/vault/test", a.admin);
      expect([test.status, await test.json()]).toEqual([200, { ok: false, message: "Vault is not initialized — no key loaded." }]);
      for (const path of ["admin/vault/initialize", "admin/vault/rotate"]) {
        const res = await a.req("POST", path, a.admin);
        expect(res.status).toBe(503);
        expect(res.headers.get("retry-after")).toBe("5");
        expect(await res.json()).toMatchObject({ error_code: "SERVICE_NOT_READY", health: "vault_ephemeral" });
      }
    } finally {
      deps.vault = loaded;
    }
  });
});
