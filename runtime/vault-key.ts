// Where a Node process gets its vault key (docs/architecture.md, API contracts): SVC_VAULT_KEY when set; otherwise, in
// the all-in-one mode only, a key generated once into DATA_DIR/vault.key (mode 0600) and read from there
// on every later start. A split deployment (functions-only, sidecar-only) has several processes that must
// share one key, so it refuses to start without SVC_VAULT_KEY instead of inventing one per process.
// POST /admin/vault/rotate replaces the file's key in place (vault-key-file.ts).
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { bytesToBase64 } from "../shared/auth/encoding.ts";
import type { Config } from "../shared/config.ts";
import { decodeVaultKey, previousVaultKeys, VaultKeyError, vaultFromEnvironment } from "../shared/vault/key-config.ts";
import { KEY_BYTES, Vault } from "../shared/vault/vault.ts";

export const VAULT_KEY_FILE = "vault.key";

/** The key file's path in `dataDir`. */
export const vaultKeyPath = (dataDir: string) => join(dataDir, VAULT_KEY_FILE);

/** Its successor while a rotation is in flight (vault-key-file.ts). */
export const NEXT_VAULT_KEY_FILE = "vault.key.next";

export const nextVaultKeyPath = (dataDir: string) => join(dataDir, NEXT_VAULT_KEY_FILE);

/** The staged key's bytes, undefined when there is none; an unreadable one (a crash while writing it) is null. */
export async function readStagedKey(dataDir: string): Promise<Uint8Array | null | undefined> {
  const text = await readFile(nextVaultKeyPath(dataDir), "utf8").catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return undefined;
    throw e;
  });
  if (text === undefined) return undefined;
  try {
    return decodeVaultKey(text, NEXT_VAULT_KEY_FILE);
  } catch {
    return null;
  }
}

/** Reads DATA_DIR/vault.key, creating it (0600, exclusive) on the first start. */
function fileKey(dataDir: string): Uint8Array {
  const path = vaultKeyPath(dataDir);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, `${bytesToBase64(new Uint8Array(randomBytes(KEY_BYTES)))}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return decodeVaultKey(readFileSync(path, "utf8"), path);
}

/**
 * Opens the vault. `keyFile` is true only for the all-in-one process, the one process of its installation
 * that may generate and keep the key beside its data.
 */
export async function openVault(config: Config, options: { keyFile: boolean }): Promise<Vault> {
  const fromEnvironment = await vaultFromEnvironment(config);
  if (fromEnvironment) return fromEnvironment;
  if (!options.keyFile)
    throw new VaultKeyError(
      "invalid configuration: SVC_VAULT_KEY must be set in a split deployment: every functions instance and sidecar shares one vault key (generate one with: openssl rand -base64 32)",
    );
  // A successor a crashed rotation left (vault-key-file.ts) opens what it may have re-encrypted until the
  // start settles it (settleStagedVaultKey): decrypt-only, never used to write.
  const staged = await readStagedKey(config.DATA_DIR);
  return Vault.open("file", fileKey(config.DATA_DIR), [...previousVaultKeys(config), ...(staged ? [staged] : [])]);
}
