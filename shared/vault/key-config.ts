// The vault keys a configuration names (SVC_VAULT_KEY, SVC_VAULT_KEY_PREVIOUS), decoded the same way on
// Node and on the edge. Where a key comes from when the variable is unset is the Node entry's business
// (runtime/vault-key.ts).
import { base64ToBytes } from "../auth/encoding.ts";
import type { Config } from "../config.ts";
import { KEY_BYTES, Vault } from "./vault.ts";

export class VaultKeyError extends Error {
  override name = "VaultKeyError";
}

/** Decodes a base64 key of exactly 32 bytes, naming the variable on a bad value. */
export function decodeVaultKey(text: string, name: string): Uint8Array {
  const bytes = base64ToBytes(text.trim());
  if (!bytes || bytes.length !== KEY_BYTES)
    throw new VaultKeyError(
      `invalid configuration: ${name} expects base64 of ${KEY_BYTES} bytes (generate one with: openssl rand -base64 32)`,
    );
  return bytes;
}

export function previousVaultKeys(config: Config): Uint8Array[] {
  const list = (config.SVC_VAULT_KEY_PREVIOUS ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  return list.map((k) => decodeVaultKey(k, "SVC_VAULT_KEY_PREVIOUS"));
}

/** The vault of SVC_VAULT_KEY, or undefined when it is unset. */
export async function vaultFromEnvironment(config: Config): Promise<Vault | undefined> {
  if (!config.SVC_VAULT_KEY) return undefined;
  return Vault.open("environment", decodeVaultKey(config.SVC_VAULT_KEY, "SVC_VAULT_KEY"), previousVaultKeys(config));
}
