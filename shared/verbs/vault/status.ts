// GET /health/vault and POST /admin/vault/test: what the vault of this process can do against the
// installation's canary, read-only. Administrators only (spec/catalogue.tsv, group vault):
// the answer says where the key comes from and whether this process holds the installation's key.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { vaultState } from "../../db/schema/index.ts";
import type { VaultStatusShape } from "../../schemas/vault.ts";
import { VaultError, type Vault } from "../../vault/vault.ts";
import { defineRead } from "../verb.ts";
import { countEncryptedSecrets } from "./secret-columns.ts";
import { vaultCondition } from "./writable.ts";
import { vaultOf } from "../verb-context.ts";

export const VAULT_ADMIN = "admin:vault";

export async function vaultStatusOf(db: Db, vault: Vault): Promise<VaultStatusShape> {
  const condition = await vaultCondition(db, vault);
  const [state] = await db.select({ last_rotation_at: vaultState.last_rotation_at }).from(vaultState).where(eq(vaultState.id, 1));
  return {
    // A loaded key with nothing stored yet becomes the installation's key on the first secret written.
    status: condition === "healthy" || condition === "uninitialized" ? "healthy" : condition === "ephemeral" ? "ephemeral" : "degraded",
    key_source: vault.loaded ? vault.source : "none",
    encrypted_secrets: await countEncryptedSecrets(db),
    last_rotation: state?.last_rotation_at?.toISOString() ?? null,
    initialized: state !== undefined,
    rotation_pending: condition === "rotation_pending",
    key_id: vault.keyId ?? null,
  };
}

export const vaultStatus = defineRead<undefined, VaultStatusShape>({ scope: VAULT_ADMIN }, (ctx) => vaultStatusOf(ctx.db, vaultOf(ctx)));

const SELF_TEST_CONTEXT = "vault.self_test";

/** A round trip through the key, then the key against the canary; never throws (always 200 {ok, message}). */
export const vaultSelfTest = defineRead<undefined, { ok: boolean; message: string }>({ scope: VAULT_ADMIN }, async (ctx) => {
  const vault = vaultOf(ctx);
  if (!vault.loaded) return { ok: false, message: "Vault is not initialized — no key loaded." };
  try {
    const probe = ctx.random.uuid();
    if ((await vault.decrypt(await vault.encrypt(probe, SELF_TEST_CONTEXT), SELF_TEST_CONTEXT)) !== probe)
      return { ok: false, message: "Decrypted value did not match." };
    const condition = await vaultCondition(ctx.db, vault);
    if (condition === "degraded")
      return {
        ok: false,
        message:
          "Vault encryption/decryption works, but the loaded key does not open the installation's secrets: SVC_VAULT_KEY is not the key they were stored with.",
      };
    if (condition === "rotation_pending")
      return {
        ok: true,
        message:
          "Vault encryption/decryption verified. A key rotation is pending: POST /api/v1/admin/vault/rotate re-encrypts the stored secrets.",
      };
    return { ok: true, message: "Vault encryption/decryption verified." };
  } catch (e) {
    // A VaultError's message names a key id at most; anything else (the database) is named by its kind only.
    return {
      ok: false,
      message: `Vault test failed: ${e instanceof VaultError ? e.message : e instanceof Error ? e.name : "unknown error"}`,
    };
  }
});
