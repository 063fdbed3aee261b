// A monitoring integration's API key (Uptime Kuma's, for its /metrics), sealed by the vault bound to its
// row (INTEGRATION_API_KEY). Never returned, logged or put in an event: reads answer `api_key_set`.
import { eq } from "drizzle-orm";
import { integrations } from "../../../db/schema/index.ts";
import type { Vault } from "../../../vault/vault.ts";
import { INTEGRATION_API_KEY, openSecret, sealSecret } from "../../vault/secret-columns.ts";
import { assertVaultWritable } from "../../vault/writable.ts";
import type { VerbScope } from "../../verb.ts";

/** Seals (or with null or "" clears) the API key of integration `id`; 503 while the vault cannot write. */
export async function storeApiKey(s: VerbScope, vault: Vault, id: number, clear: string | null): Promise<void> {
  const value = clear === null || clear === "" ? null : clear;
  if (value !== null) await assertVaultWritable(s.tx, vault, s.now);
  const sealed = value === null ? null : await sealSecret(vault, INTEGRATION_API_KEY, id, value);
  await s.tx.update(integrations).set({ api_key: sealed }).where(eq(integrations.id, id));
}

/** The clear API key of an integration row, or null. Throws VaultError when this key cannot open it. */
export async function openApiKey(vault: Vault, row: { id: number; api_key: string | null }): Promise<string | null> {
  if (!row.api_key) return null;
  return openSecret(vault, INTEGRATION_API_KEY, row.id, row.api_key);
}
