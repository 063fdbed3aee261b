// POST /admin/vault/initialize: records this process's key as the installation's (the canary). The first
// secret written does the same on its own (writable.ts); this is the explicit form, and it refuses to
// adopt a key over an installation that has one, or over ciphertexts nobody could then vouch for.
import { eq, sql } from "drizzle-orm";
import { vaultState } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { VaultStatusShape } from "../../schemas/vault.ts";
import { defineVerb } from "../verb.ts";
import { countEncryptedSecrets } from "./secret-columns.ts";
import { VAULT_ADMIN, vaultStatusOf } from "./status.ts";
import { initializeVaultState, vaultNotWritable } from "./writable.ts";
import { vaultOf } from "../verb-context.ts";

/** Serialises the verbs that decide which key is the installation's (initialize, rotate). */
export const VAULT_STATE_LOCK = sql`select pg_advisory_xact_lock(hashtext('vault_state'))`;

export const initializeVault = defineVerb<undefined, VaultStatusShape>({ scope: VAULT_ADMIN }, async (s) => {
  const vault = vaultOf(s.ctx);
  if (!vault.loaded) throw vaultNotWritable("ephemeral");
  await s.tx.execute(VAULT_STATE_LOCK);
  const [state] = await s.tx.select({ id: vaultState.id }).from(vaultState).where(eq(vaultState.id, 1));
  if (state) throw ApiError.conflict("Vault is already initialized.");
  const encrypted = await countEncryptedSecrets(s.tx);
  if (encrypted > 0)
    throw ApiError.conflict(
      `Cannot initialize a new vault key while encrypted secrets already exist (${encrypted}); start with the key they were stored with.`,
    );
  await initializeVaultState(s.tx, vault, s.now);
  s.audit({
    action: "vault.initialize",
    category: "security",
    entity_type: "vault",
    entity_id: vault.keyId!,
    diff: { key_id: vault.keyId, key_source: vault.source },
  });
  return vaultStatusOf(s.tx, vault);
});
