// The data migration of the secrets an older release stored in clear (SNMP communities, OAuth client
// secrets): SQL migrations cannot see the vault key, so the sidecar runs this once per start, after the
// migrations (sidecar/startup/vault-secrets.ts). Idempotent: ciphertexts are left alone, so a second run
// finds nothing. One transaction: either every clear value of this run is sealed or none is.
import { isCiphertext, type Vault } from "../../vault/vault.ts";
import { defineVerb } from "../verb.ts";
import { replaceSecret, SECRET_COLUMNS, sealSecret, storedSecrets } from "./secret-columns.ts";
import { VAULT_ADMIN } from "./status.ts";
import { assertVaultWritable } from "./writable.ts";

export interface ClearSecretsResult {
  /** How many values were sealed, by column name (never the values). */
  encrypted: Record<string, number>;
  total: number;
}

export const encryptClearSecrets = defineVerb<{ vault: Vault }, ClearSecretsResult>({ scope: VAULT_ADMIN }, async (s, { vault }) => {
  const clear = async (lock: boolean) => {
    const found = [];
    for (const column of SECRET_COLUMNS.filter((c) => c.migrateClear))
      found.push(...(await storedSecrets(s.tx, column, lock)).filter((secret) => !isCiphertext(secret.value)));
    return found;
  };
  if ((await clear(false)).length === 0) return { encrypted: {}, total: 0 };
  // Only the installation's key seals (a wrong or pending key answers 503 and the values stay as they are);
  // checked before the rows are locked, in the order a rotation locks.
  await assertVaultWritable(s.tx, vault, s.now);
  const found = await clear(true);
  const result: ClearSecretsResult = { encrypted: {}, total: found.length };
  for (const secret of found) {
    await replaceSecret(s.tx, secret, await sealSecret(vault, secret.column, secret.key, secret.value));
    result.encrypted[secret.column.name] = (result.encrypted[secret.column.name] ?? 0) + 1;
  }
  s.audit({ action: "vault.secrets_encrypted", category: "security", entity_type: "vault", entity_id: vault.keyId!, diff: result });
  return result;
});
