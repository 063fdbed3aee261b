// A provider config's credential (the hypervisor's API token, a Docker client certificate as JSON), sealed
// by the vault bound to its row (INTEGRATION_CONFIG_CREDENTIAL). Never returned, logged or put in an
// event: reads answer `credential_set`.
import { eq } from "drizzle-orm";
import { integrationConfigs } from "../../../db/schema/index.ts";
import type { Vault } from "../../../vault/vault.ts";
import { INTEGRATION_CONFIG_CREDENTIAL, openSecret, sealSecret } from "../../vault/secret-columns.ts";
import { assertVaultWritable } from "../../vault/writable.ts";
import type { VerbScope } from "../../verb.ts";

/** Seals (or with null clears) the credential of config `id`; 503 while the vault cannot write. */
export async function storeCredential(s: VerbScope, vault: Vault, id: number, clear: string | null): Promise<void> {
  if (clear !== null) await assertVaultWritable(s.tx, vault, s.now);
  const sealed = clear === null ? null : await sealSecret(vault, INTEGRATION_CONFIG_CREDENTIAL, id, clear);
  await s.tx.update(integrationConfigs).set({ credential: sealed }).where(eq(integrationConfigs.id, id));
}

/** The clear credential of a config row, or null. Throws VaultError when this key cannot open it. */
export async function openCredential(vault: Vault, row: { id: number; credential: string | null }): Promise<string | null> {
  if (!row.credential) return null;
  return openSecret(vault, INTEGRATION_CONFIG_CREDENTIAL, row.id, row.credential);
}
